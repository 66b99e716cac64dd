import { describe, expect, it } from 'vitest';
import { escapeControls, escapeLineControls } from '../../src/output/controls';
import { renderTable } from '../../src/output/table';
import { cutToWidth, displayWidth } from '../../src/output/width';

const style = { header: (s: string) => s };

describe('tables and escaping measure text as the terminal shows it', () => {
  it('columns after a CJK or emoji cell start at the same column on every row', () => {
    const rows = [
      { id: 'a', title: 'plain', status: 'idle' },
      { id: 'b', title: '日本語のタイトル', status: 'running' },
      { id: 'c', title: '🚀 ship 👩‍💻', status: 'idle' },
    ];
    const cols = [
      { header: 'ID', get: (r: (typeof rows)[0]) => r.id },
      { header: 'TITLE', get: (r: (typeof rows)[0]) => r.title },
      { header: 'STATUS', get: (r: (typeof rows)[0]) => r.status },
    ];
    for (const out of [renderTable(rows, cols, style), renderTable(rows, cols, { ...style, width: 30 })]) {
      const lines = out.trimEnd().split('\n');
      const starts = lines.map((l) => displayWidth(l.slice(0, l.search(/STATUS|idle|running/))));
      expect(new Set(starts).size, out).toBe(1);
    }
    expect(displayWidth(cutToWidth('日本語のタイトル', 7))).toBeLessThanOrEqual(7);
  });

  it('bidirectional controls are shown escaped, never obeyed (U+202E would reverse the rest of the line)', () => {
    expect(escapeControls('report\u202Efdp.exe')).toBe('report\\u202efdp.exe');
    expect(escapeLineControls('a\u2066b\u2069\u200f\u061c')).toBe('a\\u2066b\\u2069\\u200f\\u061c');
    const out = renderTable([{ t: 'x\u202Ey' }], [{ header: 'T', get: (r: { t: string }) => r.t }], style);
    expect(out).toContain('x\\u202ey');
    expect(out).not.toMatch(/[\u202a-\u202e]/);
  });
});
