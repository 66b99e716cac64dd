/** The columns of each view: a title, a width (or the rest of the line) and the text of a row. Pure: the components only draw them. */
import { shortAge } from '../text/duration';
import { escapeLineControls } from '../output/controls';
import { cutToWidth, padToWidth, withoutZeroWidth } from '../output/width';
import { isStale, sessionStatus, type SessionRow, type TriggerRow, type WorkRow } from './rows';
import type { AnyRow, BoardState, ViewName } from './state';

export interface Column {
  title: string;
  /** Characters; a `flex` column takes what the others leave, and droppable columns go before it has less than `width`. */
  width: number;
  flex?: boolean;
  text: (r: AnyRow, s: BoardState, now: number) => string;
  /** On a terminal too narrow for every column, those with a `drop` go first, the lowest first. */
  drop?: number;
  /** A colour for the cell, by what it says. */
  color?: (r: AnyRow, s: BoardState, now: number) => string | undefined;
}

const ago = (t: number | undefined, now: number) => (t ? shortAge(now - t) : '–');

function sessionActivity(r: SessionRow, s: BoardState): string {
  if (s.busy[r.id]) return s.busy[r.id];
  const a = s.activity[r.id];
  if (a) return `${a.step}${a.ttftMs === undefined ? '' : ` · ttft ${a.ttftMs} ms`}`;
  if (r.requiresAction) return 'waiting on a human';
  if (r.continuePending) return 'continue pending';
  if (r.status === 'running') return 'running';
  return r.stopReason ?? '';
}

const statusColor = (status: string): string | undefined =>
  ({
    running: 'green',
    waiting: 'yellow',
    interrupted: 'yellow',
    failed: 'red',
    terminated: 'red',
    archived: 'gray',
    paused: 'yellow',
    active: 'green',
    stale: 'red',
  })[status.split(/[ ,]/)[0]];

const S = (f: (r: SessionRow, s: BoardState, now: number) => string) => f as Column['text'];
const W = (f: (r: WorkRow, s: BoardState, now: number) => string) => f as Column['text'];
const T = (f: (r: TriggerRow, s: BoardState, now: number) => string) => f as Column['text'];

export const COLUMNS: Record<ViewName, Column[]> = {
  sessions: [
    { title: 'ID', width: 22, text: (r) => r.id },
    { title: 'TITLE', width: 20, flex: true, text: S((r) => r.title) },
    { title: 'AGENT', width: 12, text: S((r, s) => s.agentNames[r.agentId] ?? r.agentId) },
    {
      title: 'STATUS',
      width: 20,
      text: S((r, s) => sessionStatus(r, s.pending[r.id])),
      color: (r, s) => statusColor(sessionStatus(r as SessionRow, s.pending[r.id])),
    },
    { title: 'ACTIVITY', width: 20, text: S((r, s) => sessionActivity(r, s)) },
    { title: 'CONF', width: 4, drop: 5, text: S((r) => (r.requiresAction ? String(r.awaited.length) : '0')) },
    { title: 'PEND', width: 4, drop: 4, text: S((r, s) => (r.id in s.pending ? String(s.pending[r.id]) : '–')) },
    { title: 'EPOCH', width: 5, drop: 2, text: S((r) => r.epoch ?? '–') },
    { title: 'AGE', width: 4, drop: 1, text: S((r, _s, now) => ago(r.createdAt, now)) },
    { title: 'UPD', width: 4, drop: 3, text: S((r, _s, now) => ago(r.updatedAt, now)) },
  ],
  work: [
    { title: 'ID', width: 22, text: (r) => r.id },
    { title: 'SESSION', width: 22, flex: true, text: W((r) => r.sessionId) },
    {
      title: 'STATE',
      width: 16,
      text: W((r, _s, now) => (isStale(r, now) ? `${r.status}, stale` : r.status)),
      color: (r, _s, now) => (isStale(r as WorkRow, now) ? 'red' : undefined),
    },
    { title: 'GEN', width: 4, drop: 2, text: W((r) => (r.generation === undefined ? '–' : String(r.generation))) },
    { title: 'WORKER', width: 16, text: W((r) => r.workerId ?? '–') },
    { title: 'HEARTBEAT', width: 9, text: W((r, _s, now) => ago(r.heartbeatAt, now)) },
    { title: 'AGE', width: 4, drop: 1, text: W((r, _s, now) => ago(r.createdAt, now)) },
  ],
  triggers: [
    { title: 'ID', width: 22, text: (r) => r.id },
    { title: 'NAME', width: 16, text: T((r) => r.name) },
    { title: 'AGENT', width: 12, text: T((r, s) => s.agentNames[r.agentId] ?? r.agentId) },
    {
      title: 'STATUS',
      width: 20,
      flex: true,
      text: T((r) => (r.pausedReason ? `paused: ${r.pausedReason}` : r.status)),
      color: (r) => statusColor((r as TriggerRow).status),
    },
    {
      title: 'LAST RUN',
      width: 26,
      text: T((r, s, now) => {
        const run = s.lastRuns[r.id];
        if (!run) return '…';
        return run.at ? `${run.outcome} ${shortAge(now - run.at)} ago` : run.outcome;
      }),
    },
  ],
};

/**
 * The columns that fit a line of `columns` characters, with their widths: the flex column takes what is left (at
 * least its own width); when that does not fit, the droppable columns go, lowest `drop` first.
 */
export function layout(view: ViewName, columns: number, idWidth?: number): Array<{ column: Column; width: number }> {
  let cols = idWidth === undefined ? COLUMNS[view] : COLUMNS[view].map((c) => (c.title === 'ID' ? { ...c, width: idWidth } : c));
  const need = (cs: Column[]) => cs.reduce((n, c) => n + c.width + 1, 2);
  const droppable = cols.filter((c) => c.drop !== undefined).sort((a, b) => a.drop! - b.drop!);
  while (need(cols) > columns && droppable.length) {
    const gone = droppable.shift();
    cols = cols.filter((c) => c !== gone);
  }
  const fixed = cols.reduce((n, c) => n + (c.flex ? 0 : c.width) + 1, 2);
  return cols.map((c) => ({ column: c, width: c.flex ? Math.max(c.width, columns - fixed - 1) : c.width }));
}

/** The ID column as wide as the longest ID on screen, within bounds (the service's IDs are opaque, of any length). */
export const idWidth = (ids: readonly string[]): number => Math.min(32, Math.max(12, ...ids.map((id) => id.length)));

/**
 * A cell cut or padded to its width in terminal columns, its control characters (bidirectional ones too) shown escaped
 * and characters that draw nothing dropped.
 */
export function cell(text: string, width: number): string {
  return padToWidth(cutToWidth(withoutZeroWidth(escapeLineControls(text)), width), width);
}
