/** A comparison as text: the two sessions side by side, a `≠` on each row that differs, then the message diff. */
import { escapeControls } from '../output/controls';
import { cutToWidth, displayWidth } from '../output/width';
import { shortDuration } from '../trace/waterfall';
import type { Comparison } from './compare';
import type { SessionSummary, TurnSummary } from './summary';

type Row = [part: string, a: string, b: string];

const pad = (s: string, w: number) => {
  const cut = cutToWidth(s, w);
  return cut + ' '.repeat(Math.max(0, w - displayWidth(cut)));
};

function turnRows(i: number, a: TurnSummary | undefined, b: TurnSummary | undefined): Row[] {
  const at = `turn ${i + 1}`;
  const rows: Row[] = [
    [`${at} stop_reason`, a?.stop_reason ?? '-', b?.stop_reason ?? '-'],
    [`${at} duration_ms`, a ? shortDuration(a.duration_ms) : '-', b ? shortDuration(b.duration_ms) : '-'],
  ];
  if (a?.errors.length || b?.errors.length) rows.push([`${at} errors`, a?.errors.join(', ') || '-', b?.errors.join(', ') || '-']);
  const n = Math.max(a?.tools.length ?? 0, b?.tools.length ?? 0);
  for (let k = 0; k < n; k++) {
    const t = (x?: TurnSummary) => {
      const c = x?.tools[k];
      return c ? `${c.name}(${c.input}) ${c.outcome} ${shortDuration(c.duration_ms)}` : '-';
    };
    rows.push([`${at} tool ${k + 1}`, t(a), t(b)]);
  }
  return rows;
}

const agentOf = (s: SessionSummary) => `${s.agent_id ?? '-'}${s.agent_version !== null ? ` v${s.agent_version}` : ''}`;

export function comparisonText(c: Comparison, width: number): string {
  const rows: Row[] = [
    ['session', c.a.session_id, c.b.session_id],
    ['agent', agentOf(c.a), agentOf(c.b)],
    ['turns', String(c.a.turns.length), String(c.b.turns.length)],
  ];
  const n = Math.max(c.a.turns.length, c.b.turns.length);
  for (let i = 0; i < n; i++) rows.push(...turnRows(i, c.a.turns[i], c.b.turns[i]));
  const differing = new Set(c.differences.map((d) => d.part));
  const partW = Math.max(...rows.map((r) => r[0].length));
  const col = Math.max(12, Math.floor((width - partW - 6) / 2));
  let out = '';
  for (const [part, a, b] of rows) {
    const mark = differing.has(part) || differing.has(`${part} duration_ms`) ? '≠' : ' ';
    out += `${mark} ${part.padEnd(partW)}  ${pad(escapeControls(a), col)}  ${cutToWidth(escapeControls(b), col)}`.trimEnd() + '\n';
  }
  if (c.message_diff) out += `\nfinal agent message:\n${c.message_diff.replace(/\n$/, '').split('\n').map(escapeControls).join('\n')}\n`;
  out += c.same ? '\nthe compared parts are the same\n' : `\n${c.differences.length} difference${c.differences.length === 1 ? '' : 's'}\n`;
  return out;
}
