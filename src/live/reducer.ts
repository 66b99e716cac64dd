/**
 * The live view's state: a pure reducer from stream items (src/api/stream/types.ts) and user/command outcomes.
 * Buffers are capped so a session of a million events keeps memory bounded: finished items stay only until
 * the view has flushed them to Ink's <Static>, previews keep a bounded tail.
 */
import { firstToken, type ModelStarts } from '../session/ttft';
import type { ConnectionState, StreamItem } from '../api/stream/types';
import { payloadOf, type DeltaEvent, type InputMode, type SessionEvent, type StopReason } from '../wire/events';
import type { Session } from '../wire/resources';
import { compareEpochs } from './epoch';
import { describeEvent, type Item } from './items';
import { canonicalEvent } from '../wire/shapes';
import { escapeControls, escapeLineControls } from '../output/controls';
import { statusText } from './status';

/** Characters of a delta preview kept (its tail); the buffer may grow to twice this before it is cut. */
export const PREVIEW_CHARS = 4000;
/** Previews in flight at once (one per thread and kind, one per tool call). */
export const MAX_PREVIEWS = 32;
/** Finished items waiting for the view; beyond it the oldest are replaced by a count (the view fell behind). */
export const MAX_UNFLUSHED = 2000;

export const FILTER_ALL = 'all';
export const FILTER_MAIN = 'main';

export interface ThreadInfo {
  id: string;
  parentId?: string | null;
  name: string;
  status: string;
}

export interface Preview {
  kind: 'text' | 'thinking' | 'tool_use';
  threadId?: string;
  toolUseId?: string;
  name?: string;
  text: string;
  /** The head of the preview was cut (only the tail is kept). */
  cut: boolean;
  /** The stream broke while it was being written: what came before is gone, the complete event will replace it. */
  lost?: boolean;
  /** The view left while it was being written (the stream closed, not broken): what streamed stays, marked partial. */
  partial?: boolean;
}

export interface Confirmation {
  eventId: string;
  name: string;
  input: unknown;
  threadId?: string;
  /** An answer is on its way: y/n move on to the next one. */
  answering: boolean;
}

export interface Notice {
  text: string;
  level: 'info' | 'error';
}

export interface ViewState {
  sessionId: string;
  title?: string;
  /** The session's status; `unknown` until the first read or `session.status`. */
  status: string;
  stopReason?: StopReason;
  /** Kept as the digit string the service sent. */
  epoch?: string;
  stopping: boolean;
  interrupted: boolean;
  continuePending: boolean;
  /** When the session was archived (from a read): the header's state is then `archived`, as in every view. */
  archivedAt?: string;
  pendingInputs?: number;
  /** Complete events received (deltas not counted). */
  eventCount: number;
  connection: ConnectionState;
  /** While reconnecting: when the next attempt is made (the clock of the stream actions). */
  retryAt?: number;
  /** The view's own interrupt or continue in flight: its outcome is the one line it leaves (the events add none). */
  controlling?: 'interrupt' | 'continue';
  /** Time to first token of the last model request, in ms. */
  ttftMs?: number;
  /** `agent.model_started` times per thread ('' = coordinator) still waiting for their first delta. */
  modelStarts: ModelStarts;
  threads: readonly ThreadInfo[];
  /** Awaited tool confirmations, oldest first. */
  confirmations: readonly Confirmation[];
  /** Finished items not yet flushed to <Static>. */
  finished: readonly Item[];
  nextSeq: number;
  previews: readonly Preview[];
  showDeltas: boolean;
  /** FILTER_ALL, FILTER_MAIN (the coordinator) or a thread ID. */
  filter: string;
  compose?: { text: string; mode: InputMode };
  notice?: Notice;
  /** The view has closed: the last frame says how, in place of keys that no longer work. */
  ended?: string;
  /** Keys typed before the first frame, dropped unread (the footer says so). */
  dropped?: number;
  /** Opened from `svc top --readonly`: the view only shows; no key acts on the session. */
  readonly: boolean;
  /** The `epoch` of the last interrupt acknowledgement in the stream: its line shows that epoch, not the session's now. */
  interruptEpoch?: string;
  /**
   * An interrupt the transcript has marked, with its epoch, whose Continue it has not marked yet. A Continue writes no
   * event: it shows as the status that follows, or (live) as a read of the session no longer interrupted at a later epoch.
   */
  openInterrupt?: { epoch?: string };
}

export type Action =
  | { type: 'stream'; item: StreamItem; at: number }
  /** Items that arrived together, each with its arrival time: one state change for all of them. */
  | { type: 'batch'; items: ReadonlyArray<{ item: StreamItem; at: number }> }
  /** A session object read back from the service (GET): the authority on status, epoch and flags. */
  | { type: 'session'; session: Session }
  | { type: 'pending'; count: number }
  | { type: 'epoch'; epoch: string }
  | { type: 'flushed'; through: number }
  | { type: 'notice'; text: string; level?: Notice['level'] }
  /** The view's own interrupt or continue started: a notice until its outcome line. */
  | { type: 'control.start'; action: 'interrupt' | 'continue'; text: string }
  /** How a control action (interrupt, continue) ended: one transcript line, and the footer's notice of it cleared. */
  | { type: 'control'; text: string; level?: Notice['level'] }
  | { type: 'compose.open' }
  | { type: 'compose.input'; text: string }
  | { type: 'compose.backspace' }
  | { type: 'compose.toggle' }
  | { type: 'compose.close' }
  | { type: 'confirmation.answering'; eventId: string; answering: boolean }
  | { type: 'deltas.toggle' }
  | { type: 'filter.cycle' }
  | { type: 'ended'; text: string }
  /** Keys the terminal held when the view opened, dropped unread. */
  | { type: 'typeahead'; keys: number };

export function initialState(sessionId: string, o: { showDeltas?: boolean; readonly?: boolean } = {}): ViewState {
  return {
    sessionId,
    readonly: Boolean(o.readonly),
    status: 'unknown',
    stopping: false,
    interrupted: false,
    continuePending: false,
    eventCount: 0,
    connection: { kind: 'connecting' },
    modelStarts: {},
    threads: [],
    confirmations: [],
    finished: [],
    nextSeq: 1,
    previews: [],
    showDeltas: o.showDeltas ?? true,
    filter: FILTER_ALL,
  };
}

export function reduce(s: ViewState, a: Action): ViewState {
  switch (a.type) {
    case 'stream':
    case 'batch': {
      // New finished items are collected, then appended once: a batch costs one copy, not one per event.
      const fresh: Item[] = [];
      const draft: ViewState = { ...s };
      for (const { item, at } of a.type === 'stream' ? [a] : a.items) onStreamItem(draft, item, at, fresh);
      if (fresh.length) draft.finished = capFinished(draft.finished.concat(fresh));
      return draft;
    }
    case 'session':
      return continuedByRead(onSessionRead(s, a.session), a.session);
    case 'pending':
      return { ...s, pendingInputs: a.count };
    case 'epoch':
      return { ...s, epoch: laterEpoch(s.epoch, a.epoch) };
    case 'flushed':
      return s.finished.length && s.finished[0].seq <= a.through ? { ...s, finished: s.finished.filter((i) => i.seq > a.through) } : s;
    case 'notice':
      return { ...s, notice: { text: a.text, level: a.level ?? 'info' } };
    case 'control.start':
      return { ...s, controlling: a.action, notice: { text: a.text, level: 'info' } };
    case 'control': {
      const line: Item = { seq: s.nextSeq, kind: 'control', head: escapeControls(a.text), error: a.level === 'error' };
      // The view's own continue that took says so in its line: no second line for it from the status that follows.
      const openInterrupt = s.controlling === 'continue' && !s.interrupted ? undefined : s.openInterrupt;
      return { ...s, notice: undefined, controlling: undefined, openInterrupt, nextSeq: s.nextSeq + 1, finished: capFinished([...s.finished, line]) };
    }
    case 'compose.open':
      return s.compose ? s : { ...s, compose: { text: '', mode: 'next_turn' } };
    case 'compose.input':
      return s.compose ? { ...s, compose: { ...s.compose, text: s.compose.text + typedText(a.text) } } : s;
    case 'compose.backspace':
      return s.compose ? { ...s, compose: { ...s.compose, text: [...s.compose.text].slice(0, -1).join('') } } : s;
    case 'compose.toggle':
      return s.compose ? { ...s, compose: { ...s.compose, mode: s.compose.mode === 'next_turn' ? 'steer' : 'next_turn' } } : s;
    case 'compose.close':
      return s.compose ? { ...s, compose: undefined } : s;
    case 'confirmation.answering':
      return { ...s, confirmations: s.confirmations.map((c) => (c.eventId === a.eventId ? { ...c, answering: a.answering } : c)) };
    case 'deltas.toggle':
      // Hidden previews are not accumulated, so a preview shown again starts at the next delta.
      return { ...s, showDeltas: !s.showDeltas, previews: [] };
    case 'ended':
      return { ...s, ended: a.text, compose: undefined };
    case 'typeahead':
      return a.keys > 0 ? { ...s, dropped: a.keys } : s;
    case 'filter.cycle': {
      const options = [FILTER_ALL, FILTER_MAIN, ...s.threads.map((t) => t.id)];
      const filter = options[(options.indexOf(s.filter) + 1) % options.length];
      // Lines already written stay as they are: a marker in the transcript says where the filter changed.
      const marker: Item = { seq: s.nextSeq, kind: 'filter', head: `showing ${filterLabel(s, filter)} from here`, text: filter };
      return { ...s, filter, nextSeq: s.nextSeq + 1, finished: capFinished([...s.finished, marker]) };
    }
  }
}

/**
 * Text typed or pasted into the composer: a paste arrives as one chunk, its line breaks as carriage returns
 * (kept as line breaks of the message, not as Enter); tabs become spaces and other control characters go.
 */
function typedText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '');
}

/** The oldest confirmation no answer is on its way for: what y/n answer. */
export const nextConfirmation = (s: ViewState): Confirmation | undefined => s.confirmations.find((c) => !c.answering);

/** Whether an item or preview of this thread passes the thread filter. */
export const passesFilter = (filter: string, threadId: string | undefined): boolean =>
  filter === FILTER_ALL || (filter === FILTER_MAIN ? threadId === undefined : threadId === filter);

export const threadName = (s: ViewState, id: string | undefined): string | undefined =>
  id === undefined ? undefined : (s.threads.find((t) => t.id === id)?.name ?? id);

/** A thread filter as the header and the transcript's markers name it. */
export function filterName(s: ViewState, filter = s.filter): string {
  if (filter === FILTER_ALL) return 'all';
  if (filter === FILTER_MAIN) return 'main';
  return threadName(s, filter) ?? filter;
}

const filterLabel = (s: ViewState, filter: string): string =>
  filter === FILTER_ALL ? 'all threads' : filter === FILTER_MAIN ? 'the main thread' : `thread ${filterName(s, filter)}`;

function laterEpoch(known: string | undefined, seen: string | undefined): string | undefined {
  if (seen === undefined) return known;
  return known === undefined || compareEpochs(seen, known) > 0 ? seen : known;
}

/*
 * The stream handlers below update a draft: a copy of the state made once per action, whose fields are
 * replaced (never mutated in place), so the state given to `reduce` is untouched and a batch of events
 * costs one copy of the state, not one per event.
 */

function onStreamItem(d: ViewState, item: StreamItem, at: number, fresh: Item[]): void {
  switch (item.kind) {
    case 'event':
      return onEvent(d, item.event, at, fresh);
    case 'delta':
      return onDelta(d, item.delta);
    case 'connection':
      d.connection = item.state;
      d.retryAt = item.state.kind === 'reconnecting' && item.state.retryInMs !== undefined ? at + item.state.retryInMs : undefined;
      // Leaving the view closes the stream: what streamed stays in the last frame, marked partial. Any other state
      // but `live` is a reconnect, which may lose fragments: what unfinished previews held is discarded, each kept as
      // a marker saying so, so the fragments after the reconnect do not read as the reply's start.
      if (item.state.kind === 'closed') d.previews = d.previews.map((p) => ({ ...p, partial: true }));
      else if (item.state.kind !== 'live') d.previews = d.previews.map(lostPreview);
  }
}

function onDelta(d: ViewState, delta: DeltaEvent): void {
  if (d.showDeltas && delta.data) d.previews = appendPreview(d.previews, delta);
}

/** Appends a fragment to its preview; tool input fragments are concatenated per tool_use_id, never parsed alone. */
function appendPreview(previews: readonly Preview[], d: DeltaEvent): Preview[] {
  const data = d.data;
  const threadId = d.session_thread_id;
  const toolUseId = data.kind === 'tool_use' ? data.tool_use_id : undefined;
  const fragment = data.kind === 'tool_use' ? (data.input_delta ?? '') : (data.delta ?? '');
  const i = previews.findIndex((p) => p.kind === data.kind && p.threadId === threadId && p.toolUseId === toolUseId);
  if (i < 0) {
    const fresh: Preview = { kind: data.kind, threadId, toolUseId, name: data.kind === 'tool_use' ? data.name : undefined, ...capped(fragment, false) };
    return [...previews, fresh].slice(-MAX_PREVIEWS);
  }
  const p = previews[i];
  const out = previews.slice();
  out[i] = { ...p, ...capped(p.text + fragment, p.cut) };
  return out;
}

const lostPreview = (p: Preview): Preview => (p.lost && !p.text ? p : { ...p, text: '', cut: false, lost: true });

function capped(text: string, cut: boolean): { text: string; cut: boolean } {
  return text.length > 2 * PREVIEW_CHARS ? { text: text.slice(-PREVIEW_CHARS), cut: true } : { text, cut };
}

function onEvent(n: ViewState, event: SessionEvent, at: number, fresh: Item[]): void {
  n.eventCount += 1;
  const e = canonicalEvent(event);
  const thread = e.session_thread_id;
  const agentName = e.data?.agent_name;
  // A thread first met through one of its events (a tail started mid-session) is tagged with its agent's name.
  if (thread !== undefined && e.type !== 'session.thread_created' && typeof agentName === 'string') n.threads = nameThread(n.threads, thread, agentName);
  // Time to first token, by the one definition (src/session/ttft.ts): the service's times, not when this view attached.
  const first = firstToken(n.modelStarts, e);
  if (first) Object.assign(n, { modelStarts: first.starts }, first.ttftMs === undefined ? {} : { ttftMs: first.ttftMs });
  switch (e.type) {
    // The complete event replaces what its deltas accumulated.
    case 'agent.message':
      n.previews = without(n.previews, (p) => p.kind === 'text' && p.threadId === thread);
      break;
    case 'agent.thinking':
      n.previews = without(n.previews, (p) => p.kind === 'thinking' && p.threadId === thread);
      break;
    case 'agent.tool_use': {
      const d = payloadOf(e, 'agent.tool_use') ?? {};
      const own = n.previews.some((p) => p.kind === 'tool_use' && p.toolUseId === e.id);
      n.previews = without(n.previews, (p) => p.kind === 'tool_use' && (own ? p.toolUseId === e.id : p.threadId === thread));
      if (d.permission === 'ask' && !n.confirmations.some((c) => c.eventId === e.id))
        n.confirmations = [...n.confirmations, { eventId: e.id, name: String(d.name ?? ''), input: d.input, threadId: thread, answering: false }];
      break;
    }
    case 'user.tool_confirmation':
    case 'agent.tool_result': {
      const answered = (payloadOf(e, 'user.tool_confirmation') ?? payloadOf(e, 'agent.tool_result'))?.event_id;
      if (n.confirmations.some((c) => c.eventId === answered)) n.confirmations = n.confirmations.filter((c) => c.eventId !== answered);
      break;
    }
    case 'user.interrupt':
      // The acknowledgement carries the new epoch; completion is confirmed by reading the session.
      n.epoch = laterEpoch(n.epoch, e.epoch);
      n.interruptEpoch = e.epoch;
      n.stopping = !n.interrupted;
      break;
    case 'session.status': {
      const d = payloadOf(e, 'session.status') ?? {};
      // Only a Continue ends an interrupt but termination: any other status after it is the session started again.
      if (n.openInterrupt && d.status === 'terminated') n.openInterrupt = undefined;
      else if (n.openInterrupt && !isInterruptedStop(e))
        continuedLine(n, fresh, `continued${n.openInterrupt.epoch === undefined ? '' : ` (after the interrupt at epoch ${n.openInterrupt.epoch})`}`);
      onStatus(n, String(d.status), d.stop_reason ?? undefined);
      break;
    }
    case 'session.thread_created': {
      const d = payloadOf(e, 'session.thread_created') ?? {};
      if (typeof d.thread_id === 'string' && !n.threads.some((t) => t.id === d.thread_id))
        n.threads = [
          ...n.threads,
          { id: d.thread_id, parentId: d.parent_thread_id, name: uniqueName(n.threads, String(d.agent_name ?? d.thread_id)), status: 'running' },
        ];
      break;
    }
    case 'session.thread_status': {
      const d = payloadOf(e, 'session.thread_status') ?? {};
      if (typeof d.thread_id === 'string') {
        n.threads = upsertThread(n.threads, d.thread_id, String(d.status));
        if (d.status !== 'running') n.previews = without(n.previews, (p) => p.threadId === d.thread_id);
      }
      break;
    }
    case 'session.updated': {
      const title = payloadOf(e, 'session.updated')?.title;
      if (typeof title === 'string') n.title = title;
      break;
    }
  }
  const described = controlItem(n, e) ?? describeEvent(e, n.nextSeq, threadName(n, thread));
  // A status change keeps its derived state, quiet or not: accessible mode writes each one, in order, as a line.
  const item = described && e.type === 'session.status' ? { ...described, state: statusText(n) } : described;
  if (!item || (item.quiet && item.state === undefined)) return;
  n.nextSeq += 1;
  fresh.push(item);
}

/**
 * An interrupt leaves one line, whoever sent it: the status that says it completed, with the epoch the service gave
 * (the acknowledgement carried it), or none when the view sent it (its outcome line says it). The acknowledgement
 * itself only moves the header.
 */
function controlItem(n: ViewState, e: SessionEvent): Item | undefined {
  if (e.type === 'user.interrupt') return { seq: n.nextSeq, kind: 'interrupt', head: 'interrupt', quiet: true };
  if (!isInterruptedStop(e)) return undefined;
  // The epoch of this interrupt's own acknowledgement: the session's epoch now may be many interrupts later (a reload).
  const epoch = n.interruptEpoch;
  n.openInterrupt = { epoch };
  n.interruptEpoch = undefined;
  const head = escapeLineControls(`interrupted${epoch === undefined ? '' : ` (epoch ${epoch})`}`);
  const item: Item = { seq: n.nextSeq, kind: 'interrupt', head };
  return n.controlling === 'interrupt' ? { ...item, quiet: true } : item;
}

const isInterruptedStop = (e: SessionEvent): boolean => {
  const d = payloadOf(e, 'session.status');
  return d?.status === 'idle' && d.stop_reason?.type === 'interrupted';
};

/** Marks the Continue of the open interrupt: a line of its own, or none when the view sent it (its outcome line says it). */
function continuedLine(n: ViewState, fresh: Item[], head: string): void {
  n.openInterrupt = undefined;
  if (n.controlling === 'continue') return;
  fresh.push({ seq: n.nextSeq, kind: 'continue', head: escapeLineControls(head) });
  n.nextSeq += 1;
}

/**
 * A read of the session while the stream is live: no longer interrupted (nor about to start) at an epoch past the open
 * interrupt's means a Continue completed, which may write no event at all (nothing was queued).
 */
function continuedByRead(s: ViewState, read: Session): ViewState {
  const open = s.openInterrupt;
  const epoch = typeof read.control_epoch === 'string' ? read.control_epoch : undefined;
  if (!open?.epoch || epoch === undefined || s.connection.kind !== 'live') return s;
  if (read.interrupted || read.stopping || read.continue_pending || read.status === 'terminated' || compareEpochs(epoch, open.epoch) <= 0) return s;
  const fresh: Item[] = [];
  const n = { ...s };
  continuedLine(n, fresh, `continued (epoch ${epoch})`);
  return fresh.length ? { ...n, finished: capFinished([...n.finished, ...fresh]) } : n;
}

/** The previews but those `gone` matches; the same array when none does, so most events copy nothing. */
function without(previews: readonly Preview[], gone: (p: Preview) => boolean): readonly Preview[] {
  return previews.some(gone) ? previews.filter((p) => !gone(p)) : previews;
}

/** `idle` ends the turn, not the session: awaited confirmations are whatever `stop_reason.event_ids` still lists. */
function onStatus(n: ViewState, status: string, stopReason: StopReason | undefined): void {
  Object.assign(n, { status, stopReason });
  if (status === 'running') Object.assign(n, { interrupted: false, stopping: false });
  if (status === 'idle' && stopReason?.type === 'interrupted') Object.assign(n, { interrupted: true, stopping: false });
  if (status === 'idle') {
    // A turn that ended without its complete event (interrupted, failed) leaves no preview behind; child threads
    // keep theirs unless the whole session was interrupted.
    const all = stopReason?.type === 'interrupted';
    n.previews = n.previews.filter((p) => !all && p.threadId !== undefined);
    const awaited = stopReason?.type === 'requires_action' ? new Set(stopReason.event_ids ?? []) : new Set<string>();
    n.confirmations = n.confirmations.filter((c) => awaited.has(c.eventId));
  }
  if (status === 'terminated') Object.assign(n, { confirmations: [], previews: [], stopping: false });
}

/** A later thread of an agent already seen (another `/delegate`) is told apart in its tag: worker-1, worker-1#2… */
function uniqueName(threads: readonly ThreadInfo[], name: string): string {
  const taken = new Set(threads.map((t) => t.name));
  if (!taken.has(name)) return name;
  let i = 2;
  while (taken.has(`${name}#${i}`)) i += 1;
  return `${name}#${i}`;
}

/** Names a thread by its agent when it is not known yet, or known only by its ID. */
function nameThread(threads: readonly ThreadInfo[], id: string, agent: string): readonly ThreadInfo[] {
  const known = threads.find((t) => t.id === id);
  if (known && known.name !== id) return threads;
  const name = uniqueName(
    threads.filter((t) => t.id !== id),
    agent,
  );
  return known ? threads.map((t) => (t.id === id ? { ...t, name } : t)) : [...threads, { id, name, status: 'running' }];
}

function upsertThread(threads: readonly ThreadInfo[], id: string, status: string): ThreadInfo[] {
  return threads.some((t) => t.id === id) ? threads.map((t) => (t.id === id ? { ...t, status } : t)) : [...threads, { id, name: id, status }];
}

/** Past the cap the oldest unflushed items collapse into one line that says how many were not shown. */
function capFinished(items: Item[]): Item[] {
  if (items.length <= MAX_UNFLUSHED) return items;
  const keep = items.slice(-Math.floor(MAX_UNFLUSHED / 2));
  const dropped = items.slice(0, items.length - keep.length);
  const before = dropped[0].kind === 'gap' ? Number(dropped[0].text) - 1 : 0;
  const count = before + dropped.length;
  return [{ seq: dropped[dropped.length - 1].seq, kind: 'gap', head: 'events not shown (the view fell behind)', text: String(count) }, ...keep];
}

function onSessionRead(s: ViewState, o: Session): ViewState {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    ...s,
    title: str(o.title) ?? s.title,
    status: str(o.status) ?? s.status,
    stopReason: o.stop_reason ?? undefined,
    // Epochs only grow: a read that left before a newer epoch was seen does not take the header back.
    epoch: laterEpoch(s.epoch, str(o.control_epoch)),
    stopping: Boolean(o.stopping),
    interrupted: Boolean(o.interrupted),
    continuePending: Boolean(o.continue_pending),
    archivedAt: str(o.archived_at),
  };
}
