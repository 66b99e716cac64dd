/** The figures as text for a terminal: a record, a table per tool or group, and on a terminal the pictures. */
import { escapeControls } from '../output/controls';
import { addCount } from '../wire/own-counts';
import { renderRecord, renderTable, truncate, type Column, type TableStyle } from '../output/table';
import { displayWidth } from '../output/width';
import { bar, dailySeries, sparkline } from './chart';
import type { Figures, GroupFigures, ToolFigures } from './report';

const BAR_WIDTH = 30;
const SPARK_DAYS = 60;

const pair = (p: { p50: number; p95: number } | null, unit: string) => (p ? `p50 ${p.p50} ${unit}, p95 ${p.p95} ${unit}` : '-');
const byType = (m: Record<string, number>) =>
  Object.entries(m)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || '-';

/** One session's figures: the record, then its tools, then (on a terminal) a bar per tool's p50 and p95. */
export function sessionText(head: Record<string, unknown>, f: Figures, style: TableStyle, pictures: boolean): string {
  const record = {
    ...head,
    turns: f.turns,
    model_requests: f.model_requests,
    tool_calls: f.tool_calls,
    tool_errors: f.tool_errors,
    errors: byType(f.errors),
    interrupts: f.interrupts,
    human_waits: `${f.human_waits.count} (${f.human_waits.seconds} s)`,
    running_seconds: f.running_seconds,
    turn_seconds: pair(f.turn_seconds, 's'),
    ttft_ms: pair(f.ttft_ms, 'ms'),
    first_event_at: f.first_event_at ?? '-',
    last_event_at: f.last_event_at ?? '-',
  };
  let out = renderRecord(record, style);
  const tools = Object.entries(f.tools).map(([name, t]) => ({ name, ...t }));
  if (tools.length === 0) return out;
  out += '\n' + renderTable(tools, TOOL_COLUMNS, style);
  if (pictures) out += '\n' + toolDurations(tools, style.width);
  return out;
}

const TOOL_COLUMNS: Column<ToolFigures & { name: string }>[] = [
  { header: 'TOOL', get: (t) => t.name },
  { header: 'CALLS', get: (t) => t.calls },
  { header: 'ERRORS', get: (t) => t.errors },
  { header: 'P50_MS', get: (t) => t.duration_ms?.p50 ?? '-' },
  { header: 'P95_MS', get: (t) => t.duration_ms?.p95 ?? '-' },
];

/** Tool durations: per tool, a bar to its p50 and a lighter one on to its p95, on one scale. */
function toolDurations(tools: Array<{ name: string; duration_ms: { p50: number; p95: number } | null }>, width?: number): string {
  // A name is the service's text: its controls are shown, never obeyed, as the tables show them.
  const timed = tools.filter((t) => t.duration_ms).map((t) => ({ ...t, name: escapeControls(t.name) }));
  if (timed.length === 0) return '';
  const w = Math.max(...timed.map((t) => displayWidth(t.name)));
  const room = Math.max(10, Math.min(BAR_WIDTH, (width ?? 80) - w - 30));
  const max = Math.max(...timed.map((t) => t.duration_ms!.p95));
  const lines = timed.map((t) => {
    const d = t.duration_ms!;
    const p50 = bar(d.p50, max, room);
    const rest = '░'.repeat(Math.max(0, Math.round((d.p95 / max) * room) - p50.length));
    return `${padTo(t.name, w)}  ${(p50 + rest).padEnd(room)}  ${d.p50} ms (p95 ${d.p95} ms)`;
  });
  return `tool durations (█ p50, ░ to p95)\n${lines.join('\n')}\n`;
}

export const GROUP_COLUMNS: Column<GroupFigures>[] = [
  { header: 'GROUP', get: (g) => g.group },
  { header: 'SESSIONS', get: (g) => g.sessions },
  { header: 'FAILED', get: (g) => g.failed },
  { header: 'TURNS', get: (g) => g.turns },
  { header: 'MODEL_REQ', get: (g) => g.model_requests },
  { header: 'TOOLS', get: (g) => g.tool_calls },
  { header: 'TOOL_ERR', get: (g) => g.tool_errors },
  { header: 'ERRORS', get: (g) => Object.values(g.errors).reduce((a, b) => a + b, 0) },
  { header: 'INTERRUPTS', get: (g) => g.interrupts },
  { header: 'WAITS', get: (g) => g.human_waits.count },
  { header: 'WAIT_S', get: (g) => g.human_waits.seconds },
  { header: 'RUNNING_S', get: (g) => g.running_seconds },
  { header: 'TURN_P50_S', get: (g) => g.turn_seconds?.p50 ?? '-' },
  { header: 'TURN_P95_S', get: (g) => g.turn_seconds?.p95 ?? '-' },
  { header: 'TTFT_P50_MS', get: (g) => g.ttft_ms?.p50 ?? '-' },
  { header: 'TTFT_P95_MS', get: (g) => g.ttft_ms?.p95 ?? '-' },
];

/** The columns of the narrower table: a group's size, its failures and its two times (the rest: -o wide, -o json). */
const COMPACT = new Set(['GROUP', 'SESSIONS', 'FAILED', 'TURNS', 'TOOLS', 'ERRORS', 'WAITS', 'TURN_P50_S', 'TTFT_P50_MS']);
export const COMPACT_COLUMNS = GROUP_COLUMNS.filter((c) => COMPACT.has(c.header));

/**
 * The groups in the layout that fits the terminal (docs/decisions/tables.md): every column when they fit (and
 * always off a terminal or with -o wide), else the compact columns when they fit, else one block per group.
 */
export function groupsText(shown: GroupFigures[], style: TableStyle): string {
  const natural = (columns: Column<GroupFigures>[]) => renderTable(shown, columns, { ...style, width: undefined });
  const fits = (text: string) => style.width === undefined || text.split('\n').every((l) => displayWidth(stripStyle(l)) <= style.width!);
  const full = natural(GROUP_COLUMNS);
  if (fits(full)) return full;
  const compact = natural(COMPACT_COLUMNS);
  if (fits(compact)) return compact + '(more columns: -o wide, or -o json)\n';
  return shown.map((g) => renderRecord(Object.fromEntries(GROUP_COLUMNS.map((c) => [c.header.toLowerCase(), c.get(g)])), style)).join('\n');
}

const stripStyle = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');

/** The fleet's groups: the table, then (on a terminal) a bar of turns per group and a sparkline of turns per day. */
export function fleetText(groups: GroupFigures[], label: (g: GroupFigures) => string, style: TableStyle, pictures: boolean): string {
  const shown = groups.map((g) => ({ ...g, group: label(g) }));
  let out = groupsText(shown, style);
  if (!pictures || shown.length === 0) return out;
  const names = shown.map((g) => escapeControls(g.group));
  const w = Math.max(...names.map(displayWidth));
  const max = Math.max(...shown.map((g) => g.turns));
  out += '\nturns per group\n';
  const line = (g: GroupFigures, i: number) =>
    `${padTo(names[i]!, w)}  ${bar(g.turns, max, BAR_WIDTH).padEnd(BAR_WIDTH)}  ${g.turns} (${g.sessions} sessions, ${g.failed} failed)`;
  out += shown.map((g, i) => (style.width ? truncate(line(g, i), style.width) : line(g, i))).join('\n') + '\n';
  const perDay: Record<string, number> = {};
  for (const g of groups) for (const [d, n] of Object.entries(g.turns_per_day)) addCount(perDay, d, n);
  const series = dailySeries(perDay, Math.min(SPARK_DAYS, Math.max(10, (style.width ?? 80) - 30)));
  if (series) out += `\nturns per day  ${series.from} ${sparkline(series.values)} ${series.to}  (max ${Math.max(...series.values)})\n`;
  return out;
}

/** The text padded with spaces to `w` terminal cells. */
const padTo = (text: string, w: number) => text + ' '.repeat(Math.max(0, w - displayWidth(text)));
