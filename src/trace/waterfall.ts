/**
 * Spans as text. On a terminal, a waterfall: one row per span, its name indented by nesting, its duration, and a
 * bar on a time axis shared by every row and fitted to the width; the longest spans (turns aside) are highlighted,
 * errors and interrupts marked on the bar where they happened. Piped, the same tree as plain lines, turn by turn.
 */
import { escapeControls } from '../output/controls';
import { cutToWidth, displayWidth } from '../output/width';
import type { Span } from './spans';

/** Duration as a person reads it: 850ms, 12.3s, 4m05s, 2h10m. */
export function shortDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

const label = (s: Span) => `${'  '.repeat(s.depth)}${escapeControls(s.name)}`;

/** What a span's line says after its name and duration: outcome, model, time to first token, stop, events. */
function facts(s: Span): string {
  const a = s.attrs;
  const out: string[] = [];
  if (a['svc.tool.outcome'] !== undefined) out.push(String(a['svc.tool.outcome']));
  if (a['svc.wait.result'] !== undefined) out.push(String(a['svc.wait.result']));
  if (a['svc.ttft_ms'] !== undefined) out.push(`ttft ${shortDuration(Number(a['svc.ttft_ms']))}`);
  if (a['svc.stop_reason'] !== undefined) out.push(`stop ${a['svc.stop_reason']}`);
  if (a['svc.open'] === true) out.push('still open');
  for (const e of s.events) {
    if (e.name === 'session.error') out.push(`error ${e.attrs['error.type']}`);
    else if (e.name === 'interrupt') out.push('interrupted');
  }
  return escapeControls(out.join(', '));
}

/** The tree, one line per span: for a pipe (and for a span stream: call it per turn). */
export function treeText(spans: Span[]): string {
  let out = '';
  for (const s of spans) {
    const f = facts(s);
    out += `${label(s)}  ${shortDuration(s.end - s.start)}${f ? `  ${f}` : ''}\n`;
  }
  return out;
}

const SGR = { reset: '\x1b[0m', bold: '\x1b[1m', dim: '\x1b[2m', red: '\x1b[31m', yellow: '\x1b[33m', inverse: '\x1b[7m' };
const KIND_COLOR: Record<Span['kind'], string> = { turn: '\x1b[37m', model: '\x1b[36m', tool: '\x1b[32m', wait: '\x1b[35m', thread: '\x1b[34m' };
/** How many of the longest spans are highlighted. */
export const HIGHLIGHTED = 3;
const DUR_WIDTH = 7;

export interface WaterfallOptions {
  width: number;
  color: boolean;
}

/** The waterfall: a header with the axis, then a row per span; every row is at most `width` columns. */
export function waterfallText(spans: Span[], o: WaterfallOptions): string {
  if (spans.length === 0) return 'no spans: the history has no turn\n';
  let [t0, t1, widest] = [Infinity, -Infinity, 0];
  for (const s of spans) [t0, t1, widest] = [Math.min(t0, s.start), Math.max(t1, s.end), Math.max(widest, label(s).length)];
  const total = Math.max(1, t1 - t0);
  const width = Math.max(40, o.width);
  const labelW = Math.min(widest, Math.floor(width * 0.35));
  const barW = width - labelW - DUR_WIDTH - 3;
  const longest = new Set(
    spans
      .filter((s) => s.kind !== 'turn')
      .sort((a, b) => b.end - b.start - (a.end - a.start))
      .slice(0, HIGHLIGHTED)
      .filter((s) => s.end > s.start),
  );
  const col = (t: number) => Math.min(barW - 1, Math.floor(((t - t0) / total) * barW));
  const paint = (text: string, ...codes: string[]) => (o.color && codes.length ? codes.join('') + text + SGR.reset : text);

  const axisEnd = shortDuration(total);
  const head = `${'span'.padEnd(labelW)} ${'time'.padStart(DUR_WIDTH)} ${'0'.padEnd(barW - axisEnd.length)}${axisEnd}`;
  const lines = [paint(head, SGR.bold)];
  for (const s of spans) {
    const from = col(s.start);
    const to = Math.max(from + 1, Math.min(barW, Math.ceil(((s.end - t0) / total) * barW)));
    const cells = [...(' '.repeat(from) + (s.kind === 'wait' ? '░' : '█').repeat(to - from) + ' '.repeat(barW - to))];
    const marks = new Map<number, string>();
    for (const e of s.events) if (e.name !== 'requires_action') marks.set(col(e.at), e.name === 'interrupt' ? '×' : '!');
    const cut = cutToWidth(label(s), labelW);
    const name = cut + ' '.repeat(Math.max(0, labelW - displayWidth(cut)));
    const dur = shortDuration(s.end - s.start).padStart(DUR_WIDTH);
    const hot = longest.has(s);
    const barColor = s.status === 'error' ? SGR.red : hot ? SGR.yellow : KIND_COLOR[s.kind];
    let bar = '';
    for (let i = 0; i < barW;) {
      const mark = marks.get(i);
      if (mark !== undefined) {
        bar += paint(mark, SGR.bold, SGR.red);
        i++;
        continue;
      }
      let j = i + 1;
      while (j < barW && cells[j] === cells[i] && !marks.has(j)) j++;
      const run = cells.slice(i, j).join('');
      bar += cells[i] === ' ' ? run : paint(run, barColor);
      i = j;
    }
    lines.push(`${hot ? paint(name, SGR.bold) : name} ${hot ? paint(dur, SGR.bold, SGR.yellow) : dur} ${bar}`);
  }
  const hot = [...longest].map((s) => `${escapeControls(s.name)} ${shortDuration(s.end - s.start)}`).join(', ');
  if (hot) lines.push(cutToWidth(`longest: ${hot}`, width));
  return lines.join('\n') + '\n';
}
