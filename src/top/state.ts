/**
 * The board's state: a pure reducer over fleet snapshots (the watch's ADDED / MODIFIED / DELETED, the work and
 * trigger lists), the activity of the streams open on screen, and the user's moves. Rows are kept slim (rows.ts);
 * what the screen shows (filtered, sorted, the window of rows) is derived, never stored.
 */
import { firstToken, type ModelStarts } from '../session/ttft';
import type { SessionEvent } from '../wire/events';
import { canonicalEvent } from '../wire/shapes';
import { sessionRow, sessionStatus, triggerRow, workRow, type LastRun, type SessionRow, type TriggerRow, type WorkRow } from './rows';
import type { Obj } from '../api/resources';
import { HistoryTally } from '../stats/tally';

export type ViewName = 'sessions' | 'work' | 'triggers';
export const VIEWS: readonly ViewName[] = ['sessions', 'work', 'triggers'];

/** What a running session on screen is doing, from its stream. */
export interface Activity {
  step: string;
  /** Time to first token of its last model request (`agent.model_started` to its first fragment). */
  ttftMs?: number;
  /** The model requests still waiting for their first fragment (src/session/ttft.ts). */
  modelStarts?: ModelStarts;
}

/** `down`: the last listing failed; `unreachable` when no answer came at all (else the service answered an error). */
export type Connection = { kind: 'connecting' } | { kind: 'live' } | { kind: 'down'; unreachable: boolean; attempt: number; message: string; retryAt: number };

export interface Notice {
  text: string;
  level: 'info' | 'error';
}

/** Lines of the screen that are not table rows: header (2), column titles, notice, footer (2). */
export const CHROME_LINES = 6;
/** Most activity streams open at once. */
export const MAX_STREAMS = 16;

export interface BoardState {
  view: ViewName;
  sessions: ReadonlyMap<string, SessionRow>;
  work: ReadonlyMap<string, WorkRow>;
  triggers: ReadonlyMap<string, TriggerRow>;
  /** The first full listing of the sessions has ended (reads for the rows on screen wait for it). */
  synced: boolean;
  /** A view's rows have been listed once (until then it says "loading"). */
  loaded: Readonly<Record<ViewName, boolean>>;
  lastRuns: Readonly<Record<string, LastRun>>;
  agentNames: Readonly<Record<string, string>>;
  /** Pending inputs of the sessions read so far. */
  pending: Readonly<Record<string, number>>;
  activity: Readonly<Record<string, Activity>>;
  /** Each streamed session's figures (src/stats), from the events the board has streamed; `f` shows the selected one's. */
  figures: Readonly<Record<string, HistoryTally>>;
  figuresOpen: boolean;
  /** The selected row of each view, by ID (a re-sort or a new row keeps it). */
  selected: Readonly<Record<ViewName, string | undefined>>;
  /** Where the selection was, for when its row goes. */
  cursor: Readonly<Record<ViewName, number>>;
  /** The first row on screen of each view. */
  top: Readonly<Record<ViewName, number>>;
  filter: Readonly<Record<ViewName, string>>;
  /** The filter is being typed. */
  filtering: boolean;
  sort: Readonly<Record<ViewName, number>>;
  marks: ReadonlySet<string>;
  /** A write that needs a yes first (archive). */
  asking?: { action: 'archive'; ids: readonly string[] };
  /** Rows with a write in flight, and what it is. */
  busy: Readonly<Record<string, string>>;
  notice?: Notice;
  help: boolean;
  readonly: boolean;
  connection: Connection;
  /** When the sessions were last listed (the clock of the feed). */
  polledAt?: number;
  rows: number;
  columns: number;
  /** The environment of the work view (`--environment`), as given and as resolved. */
  environment?: { ref: string; id?: string };
  /** The selectors in force, as one line for the header. */
  selection?: string;
}

export type Action =
  | { type: 'sessions.upsert'; items: readonly Obj[]; at: number }
  | { type: 'sessions.remove'; ids: readonly string[] }
  /** A full listing ended: rows it did not list are gone (a restart of the watch after an outage). */
  | { type: 'sessions.synced'; ids: ReadonlySet<string> }
  | { type: 'work.list'; items: readonly Obj[] }
  | { type: 'triggers.list'; items: readonly Obj[] }
  | { type: 'lastRun'; id: string; run: LastRun }
  | { type: 'agents'; names: Readonly<Record<string, string>> }
  | { type: 'pending'; id: string; count: number }
  /** Events of a session's stream, in order, each with its arrival time (timing reads the service's processed_at, src/session/ttft.ts). */
  | { type: 'events'; id: string; events: ReadonlyArray<{ event: SessionEvent; at?: number }> }
  /** The work view's environment, resolved from its name. */
  | { type: 'environment'; id: string }
  | { type: 'stream.closed'; id: string }
  | { type: 'connection'; connection: Connection }
  | { type: 'resize'; rows: number; columns: number }
  | { type: 'view'; view: ViewName }
  | { type: 'move'; by: number }
  | { type: 'moveTo'; index: number }
  | { type: 'filter.open' }
  | { type: 'filter.input'; text: string }
  | { type: 'filter.backspace' }
  | { type: 'filter.done' }
  | { type: 'filter.clear' }
  | { type: 'sort.cycle' }
  | { type: 'mark.toggle' }
  | { type: 'ask'; action: 'archive'; ids: readonly string[] }
  | { type: 'ask.close' }
  | { type: 'busy'; ids: readonly string[]; text?: string }
  /** A write ended: its rows are no longer busy; marks of the rows it did are dropped. */
  | { type: 'done'; ids: readonly string[]; ok: readonly string[]; notice: Notice }
  | { type: 'notice'; notice?: Notice }
  | { type: 'help.toggle' }
  | { type: 'figures.toggle' };

const perView = <T>(v: T): Record<ViewName, T> => ({ sessions: v, work: v, triggers: v });

export function initialState(
  o: { readonly?: boolean; rows?: number; columns?: number; environment?: string; environmentId?: string; selection?: string } = {},
): BoardState {
  return {
    view: 'sessions',
    sessions: new Map(),
    work: new Map(),
    triggers: new Map(),
    synced: false,
    loaded: perView(false),
    lastRuns: {},
    agentNames: {},
    pending: {},
    activity: {},
    figures: {},
    figuresOpen: false,
    selected: perView(undefined),
    cursor: perView(0),
    top: perView(0),
    filter: perView(''),
    filtering: false,
    sort: perView(0),
    marks: new Set(),
    busy: {},
    help: false,
    readonly: Boolean(o.readonly),
    connection: { kind: 'connecting' },
    rows: o.rows ?? 24,
    columns: o.columns ?? 80,
    environment: o.environment === undefined ? undefined : { ref: o.environment, id: o.environmentId },
    selection: o.selection,
  };
}

/** The row types of the views. */
export type AnyRow = SessionRow | WorkRow | TriggerRow;

/** A sort of a view: its name in the footer and its order. */
interface Sort<R> {
  name: string;
  compare: (a: R, b: R) => number;
}

const newest = <R extends { updatedAt: number; id: string }>(a: R, b: R) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1);
const byText = (f: (r: any) => string) => (a: any, b: any) => (f(a) < f(b) ? -1 : f(a) > f(b) ? 1 : a.id < b.id ? -1 : 1);

const STATUS_ORDER = ['running', 'rescheduling', 'idle', 'terminated'];
const statusRank = (r: SessionRow) => (r.requiresAction ? -1 : STATUS_ORDER.indexOf(r.status) >>> 0);

export const SORTS: { sessions: Sort<SessionRow>[]; work: Sort<WorkRow>[]; triggers: Sort<TriggerRow>[] } = {
  sessions: [
    { name: 'updated', compare: newest },
    { name: 'status', compare: (a, b) => statusRank(a) - statusRank(b) || newest(a, b) },
    { name: 'created', compare: (a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1) },
    { name: 'title', compare: byText((r: SessionRow) => r.title) },
  ],
  work: [
    { name: 'created', compare: (a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1) },
    { name: 'state', compare: byText((r: WorkRow) => r.status) },
    { name: 'heartbeat', compare: (a, b) => (a.renewedAt ?? Infinity) - (b.renewedAt ?? Infinity) || (a.id < b.id ? -1 : 1) },
  ],
  triggers: [
    { name: 'updated', compare: newest },
    { name: 'status', compare: byText((r: TriggerRow) => r.status) },
    { name: 'name', compare: byText((r: TriggerRow) => r.name) },
  ],
};

export const sortName = (s: BoardState, view = s.view): string => SORTS[view][s.sort[view]].name;

/** The words of a row the filter searches. */
function words(s: BoardState, view: ViewName, r: AnyRow): string {
  switch (view) {
    case 'sessions': {
      const x = r as SessionRow;
      // The state as shown (`failed`), and the service's own words under it (`idle`, `error`).
      return `${x.id} ${x.title} ${s.agentNames[x.agentId] ?? x.agentId} ${sessionStatus(x, s.pending[x.id])} ${x.status} ${x.stopReason ?? ''} ${s.activity[x.id]?.step ?? ''}`;
    }
    case 'work': {
      const x = r as WorkRow;
      return `${x.id} ${x.sessionId} ${x.status} ${x.workerId ?? ''}`;
    }
    case 'triggers': {
      const x = r as TriggerRow;
      return `${x.id} ${x.name} ${s.agentNames[x.agentId] ?? x.agentId} ${x.status} ${x.pausedReason ?? ''}`;
    }
  }
}

const memo = new WeakMap<object, { key: unknown[]; rows: readonly AnyRow[] }>();

/** The rows of a view as shown: filtered and sorted (cached while its inputs are the same objects). */
export function visibleRows(s: BoardState, view = s.view): readonly AnyRow[] {
  const source = view === 'sessions' ? s.sessions : view === 'work' ? s.work : s.triggers;
  const filter = s.filter[view].toLowerCase();
  const key = [filter, s.sort[view], filter ? s.agentNames : undefined, filter ? s.activity : undefined, filter ? s.pending : undefined];
  const hit = memo.get(source);
  if (hit && hit.key.every((k, i) => k === key[i])) return hit.rows;
  let rows = [...source.values()] as AnyRow[];
  if (filter) rows = rows.filter((r) => words(s, view, r).toLowerCase().includes(filter));
  rows.sort(SORTS[view][s.sort[view]].compare as (a: AnyRow, b: AnyRow) => number);
  memo.set(source, { key, rows });
  return rows;
}

/** How many table rows fit on the screen. */
export const pageSize = (s: BoardState): number => Math.max(1, s.rows - CHROME_LINES - 1);

/** The selected row's index in the visible rows: its row, else where the selection was. */
export function selectedIndex(s: BoardState, view = s.view): number {
  const rows = visibleRows(s, view);
  if (rows.length === 0) return -1;
  const id = s.selected[view];
  const at = id === undefined ? -1 : rows.findIndex((r) => r.id === id);
  return at >= 0 ? at : Math.min(s.cursor[view], rows.length - 1);
}

export function selectedRow(s: BoardState, view = s.view): AnyRow | undefined {
  const i = selectedIndex(s, view);
  return i < 0 ? undefined : visibleRows(s, view)[i];
}

/** The rows on screen now: the window of the visible rows that holds the selection. */
export function windowOf(s: BoardState, view = s.view): { rows: readonly AnyRow[]; first: number; selected: number } {
  const all = visibleRows(s, view);
  const page = pageSize(s);
  const sel = selectedIndex(s, view);
  let first = Math.min(s.top[view], Math.max(0, all.length - page));
  if (sel >= 0 && sel < first) first = sel;
  if (sel >= first + page) first = sel - page + 1;
  first = Math.max(0, first);
  return { rows: all.slice(first, first + page), first, selected: sel };
}

/** The running sessions on screen, at most MAX_STREAMS: those whose streams are open. */
export function streamedSessions(s: BoardState): string[] {
  if (s.view !== 'sessions') return [];
  return windowOf(s, 'sessions')
    .rows.filter((r) => (r as SessionRow).status === 'running' && !(r as SessionRow).archived)
    .slice(0, MAX_STREAMS)
    .map((r) => r.id);
}

/** What a write key acts on: the marked sessions that are still listed, else the selected one. */
export function targets(s: BoardState): SessionRow[] {
  if (s.view !== 'sessions') return [];
  const marked = [...s.marks].map((id) => s.sessions.get(id)).filter((r): r is SessionRow => r !== undefined);
  if (marked.length) return marked;
  const r = selectedRow(s, 'sessions') as SessionRow | undefined;
  return r ? [r] : [];
}

export function reduce(s: BoardState, a: Action): BoardState {
  switch (a.type) {
    case 'sessions.upsert': {
      // A quiet poll: nothing changed but the time of the last answer.
      if (!a.items.length) return { ...s, polledAt: a.at, loaded: s.loaded.sessions ? s.loaded : { ...s.loaded, sessions: true } };
      const sessions = new Map(s.sessions);
      for (const o of a.items) sessions.set(String(o.id), sessionRow(o));
      // A session no longer running has no live activity to show.
      const activity = pruneActivity(s.activity, sessions);
      return { ...s, sessions, activity, loaded: { ...s.loaded, sessions: true }, polledAt: a.at };
    }
    case 'sessions.remove': {
      const gone = a.ids.filter((id) => s.sessions.has(id));
      if (!gone.length) return s;
      return withoutSessions(s, gone);
    }
    case 'sessions.synced': {
      const gone = [...s.sessions.keys()].filter((id) => !a.ids.has(id));
      const next = gone.length ? withoutSessions(s, gone) : s;
      return { ...next, synced: true, loaded: next.loaded.sessions ? next.loaded : { ...next.loaded, sessions: true } };
    }
    case 'work.list':
      return { ...s, work: new Map(a.items.map((o) => [String(o.id), workRow(o)])), loaded: { ...s.loaded, work: true } };
    case 'triggers.list':
      return { ...s, triggers: new Map(a.items.map((o) => [String(o.id), triggerRow(o)])), loaded: { ...s.loaded, triggers: true } };
    case 'lastRun':
      return { ...s, lastRuns: { ...s.lastRuns, [a.id]: a.run } };
    case 'agents':
      return Object.keys(a.names).length ? { ...s, agentNames: { ...s.agentNames, ...a.names } } : s;
    case 'pending':
      return s.pending[a.id] === a.count ? s : { ...s, pending: { ...s.pending, [a.id]: a.count } };
    case 'events': {
      let act = s.activity[a.id] ?? { step: 'running' };
      for (const { event } of a.events) act = nextActivity(act, event);
      // The accumulator counts in place (a new one per session); the state is still a new object for the view.
      const tally = s.figures[a.id] ?? new HistoryTally();
      for (const { event } of a.events) tally.add(event);
      const figures = s.figures[a.id] ? s.figures : { ...s.figures, [a.id]: tally };
      return { ...s, activity: { ...s.activity, [a.id]: act }, figures };
    }
    case 'stream.closed': {
      if (!(a.id in s.activity)) return s;
      const { [a.id]: _, ...activity } = s.activity;
      return { ...s, activity };
    }
    case 'environment':
      return s.environment ? { ...s, environment: { ...s.environment, id: a.id } } : s;
    case 'connection':
      return { ...s, connection: a.connection };
    case 'resize':
      return { ...s, rows: a.rows, columns: a.columns };
    case 'view':
      return s.view === a.view ? s : { ...s, view: a.view, filtering: false, asking: undefined, help: false };
    case 'move':
      return moveTo(s, selectedIndex(s) + a.by);
    case 'moveTo':
      return moveTo(s, a.index < 0 ? visibleRows(s).length - 1 : a.index);
    case 'filter.open':
      return { ...s, filtering: true, help: false };
    case 'filter.input':
      return s.filtering ? keepSelection(s, { ...s, filter: { ...s.filter, [s.view]: s.filter[s.view] + a.text.replace(/[\u0000-\u001f\u007f]/g, '') } }) : s;
    case 'filter.backspace':
      return s.filtering ? keepSelection(s, { ...s, filter: { ...s.filter, [s.view]: [...s.filter[s.view]].slice(0, -1).join('') } }) : s;
    case 'filter.done':
      return { ...s, filtering: false };
    case 'filter.clear':
      return keepSelection(s, { ...s, filtering: false, filter: { ...s.filter, [s.view]: '' } });
    case 'sort.cycle':
      return keepSelection(s, { ...s, sort: { ...s.sort, [s.view]: (s.sort[s.view] + 1) % SORTS[s.view].length } });
    case 'mark.toggle': {
      const r = selectedRow(s);
      if (!r || s.view !== 'sessions') return s;
      const marks = new Set(s.marks);
      if (!marks.delete(r.id)) marks.add(r.id);
      // Marking moves on, as in a file manager: space space space marks three rows.
      return moveTo({ ...s, marks }, selectedIndex(s) + 1);
    }
    case 'ask':
      return { ...s, asking: { action: a.action, ids: a.ids }, help: false };
    case 'ask.close':
      return s.asking ? { ...s, asking: undefined } : s;
    case 'busy': {
      const busy = { ...s.busy };
      for (const id of a.ids) busy[id] = a.text ?? 'working…';
      return { ...s, busy };
    }
    case 'done': {
      const busy = { ...s.busy };
      for (const id of a.ids) delete busy[id];
      const marks = new Set(s.marks);
      for (const id of a.ok) marks.delete(id);
      return { ...s, busy, marks, notice: a.notice };
    }
    case 'notice':
      return { ...s, notice: a.notice };
    case 'help.toggle':
      return { ...s, help: !s.help, filtering: false };
    case 'figures.toggle':
      return { ...s, figuresOpen: !s.figuresOpen, help: false };
  }
}

/** The selection moved to row `index` of the visible rows (clamped), the window following it. */
function moveTo(s: BoardState, index: number): BoardState {
  const rows = visibleRows(s);
  if (!rows.length) return s;
  const i = Math.max(0, Math.min(rows.length - 1, index));
  const page = pageSize(s);
  let top = s.top[s.view];
  if (i < top) top = i;
  if (i >= top + page) top = i - page + 1;
  return { ...s, selected: { ...s.selected, [s.view]: rows[i].id }, cursor: { ...s.cursor, [s.view]: i }, top: { ...s.top, [s.view]: top } };
}

/** After a change of filter or sort: the same row stays selected when it is still shown, else the first. */
function keepSelection(before: BoardState, after: BoardState): BoardState {
  const id = selectedRow(before)?.id;
  const rows = visibleRows(after);
  const i = id === undefined ? -1 : rows.findIndex((r) => r.id === id);
  return moveTo({ ...after, top: { ...after.top, [after.view]: 0 } }, Math.max(0, i));
}

function withoutSessions(s: BoardState, gone: readonly string[]): BoardState {
  const sessions = new Map(s.sessions);
  const marks = new Set(s.marks);
  const activity = { ...s.activity };
  const pending = { ...s.pending };
  const figures = { ...s.figures };
  for (const id of gone) {
    delete figures[id];
    sessions.delete(id);
    marks.delete(id);
    delete activity[id];
    delete pending[id];
  }
  const asking = s.asking && s.asking.ids.some((id) => sessions.has(id)) ? { ...s.asking, ids: s.asking.ids.filter((id) => sessions.has(id)) } : undefined;
  return { ...s, sessions, marks, activity, pending, asking, figures };
}

function pruneActivity(activity: BoardState['activity'], sessions: ReadonlyMap<string, SessionRow>): BoardState['activity'] {
  const stale = Object.keys(activity).filter((id) => sessions.get(id)?.status !== 'running');
  if (!stale.length) return activity;
  const next = { ...activity };
  for (const id of stale) delete next[id];
  return next;
}

/**
 * The step a session is at after one more event of its stream. Streams are opened without deltas: the first
 * fragment of a streamed reply shows as `agent.thinking_started` / `agent.message_started`, which also ends the
 * time to first token (src/session/ttft.ts: the service's times, so history read at attach gives the same figure).
 */
export function nextActivity(a: Activity, event: SessionEvent): Activity {
  const e = canonicalEvent(event);
  const d = (e.data ?? {}) as Record<string, unknown>;
  const timed = (step: string): Activity => {
    const first = firstToken(a.modelStarts ?? {}, e);
    return { step, ttftMs: first?.ttftMs ?? a.ttftMs, modelStarts: first ? first.starts : a.modelStarts };
  };
  switch (e.type) {
    case 'agent.model_started':
      return timed('thinking');
    case 'agent.thinking_started':
      return timed('thinking');
    case 'agent.message_started':
      return timed('writing');
    case 'agent.thinking':
      return { ...a, step: 'thinking' };
    case 'agent.message':
      return { ...a, step: 'writing' };
    case 'agent.tool_use':
      return { ...a, step: d.permission === 'ask' ? 'waiting on a human' : `tool ${String(d.name ?? '')}`.trim() };
    case 'agent.custom_tool_use':
      return { ...a, step: 'waiting on a human' };
    case 'agent.tool_result':
    case 'user.tool_confirmation':
    case 'user.custom_tool_result':
    case 'user.tool_result':
      return { ...a, step: 'thinking' };
    case 'session.status':
      return d.status === 'running' ? a : { ...a, step: String(d.status), modelStarts: undefined };
    default:
      return a;
  }
}
