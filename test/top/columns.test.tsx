import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { Table } from '../../src/top/components/Table';
import { cell } from '../../src/top/columns';
import { initialState, reduce } from '../../src/top/state';
import { displayWidth } from '../../src/output/width';

const T0 = Date.parse('2026-11-20T10:00:00Z');
/** Titles a code-point count gets wrong: wide CJK, emoji (one with a joiner), zero-width characters, a bidi override. */
const TITLES = ['plain ascii title', '日本語のタイトルです', '🚀 deploy 👩‍💻 fix', 'zero\u200bwidth\u200bspaces', 'evil \u202Egnp.exe'];

describe('svc top sizes cells by display width', () => {
  it('a cell is exactly its width in terminal columns, cut without splitting a character, bidi controls escaped', () => {
    for (const title of TITLES) for (const width of [6, 12, 20, 40]) expect(displayWidth(cell(title, width)), `${title} @ ${width}`).toBe(width);
    expect(cell('日本語のタイトルです', 9)).toBe('日本語の…');
    expect(cell('日本語のタイトルです', 10)).toBe('日本語の… ');
    expect(cell('evil \u202Egnp.exe', 30)).toContain('evil \\u202egnp.exe');
    expect(cell('a\u2066b\u2069c\u200f', 30)).not.toMatch(/[\u2066-\u2069\u200f]/);
  });

  it('every row of the board keeps all its columns: the CJK, emoji and zero-width rows line up with the others', () => {
    const items = TITLES.map((title, i) => ({
      id: `sesn_${i}`,
      title,
      agent_id: 'agent_1',
      status: 'idle',
      control_epoch: '7',
      created_at: new Date(T0).toISOString(),
      updated_at: new Date(T0 + i).toISOString(),
      archived_at: null,
    }));
    const s = reduce(initialState({ rows: 20, columns: 110 }), { type: 'sessions.upsert', items, at: T0 });
    const { lastFrame, unmount } = render(<Table s={s} now={T0 + 60_000} />);
    const rows = (lastFrame() ?? '').split('\n').filter((l) => l.includes('sesn_'));
    unmount();
    expect(rows).toHaveLength(TITLES.length);
    const widths = rows.map((r) => displayWidth(r.trimEnd()));
    expect(new Set(widths).size, rows.join('\n')).toBe(1);
    // The CONF column is on every row, and the status column starts at the same place on each.
    for (const r of rows) expect(r, rows.join('\n')).toMatch(/ idle +0\b/);
    expect(new Set(rows.map((r) => displayWidth(r.slice(0, r.indexOf(' idle')))))).toHaveProperty('size', 1);
    expect(rows.join('\n')).not.toMatch(/[\u202a-\u202e]/);
  });
});
