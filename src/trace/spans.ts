/**
 * A session's history folded into spans, one event at a time (no commander, no I/O): the model of
 * docs/decisions/trace-spans.md. A turn (a `running` to a stop that is not `requires_action`) holds its model
 * requests, tool calls, human waits and child threads; when it closes, its spans are handed out in start order and
 * forgotten, so memory is bounded by the largest turn, never the history.
 */
import { hash } from 'node:crypto';
import type { SessionEvent } from '../wire/events';
import { canonicalEvent } from '../wire/shapes';

export type SpanKind = 'turn' | 'model' | 'tool' | 'wait' | 'thread';
export type Attr = string | number | boolean;

/** A point in a span's time: an error or an interrupt (and the pause of a turn for a person). */
export interface SpanEvent {
  name: 'session.error' | 'interrupt' | 'requires_action';
  at: number;
  attrs: Record<string, Attr>;
}

export interface Span {
  /** 16 hex digits, derived from the session and the event that opened the span: stable across runs. */
  id: string;
  parent?: string;
  kind: SpanKind;
  name: string;
  /** The thread's ID for a child thread's spans; undefined for the coordinator's. */
  thread?: string;
  /** Milliseconds since the epoch. */
  start: number;
  end: number;
  /** Nesting below the turn (the turn is 0). */
  depth: number;
  attrs: Record<string, Attr>;
  events: SpanEvent[];
  status: 'ok' | 'error' | 'unset';
}

export interface FoldScope {
  session: string;
  /** Folding one thread's history: its `session.thread_status` changes are its turns. */
  thread?: string;
  /** The session's agent, put on turns (GenAI `gen_ai.agent.*`). */
  agentId?: string;
  agentName?: string;
}

/** The trace ID of a session: the first 16 bytes of sha256 of its ID, as 32 hex digits. */
export const traceIdOf = (session: string): string => hash('sha256', session, 'hex').slice(0, 32);

/** A span ID from the session and an anchor (the opening event's ID): the first 8 bytes of sha256. */
export const spanIdOf = (session: string, anchor: string): string => hash('sha256', `${session}\n${anchor}`, 'hex').slice(0, 16);

/** The ID of the span an event opens in a session's whole trace (no `--thread`): how a worker's span joins it. */
export const hostedSpanId = (session: string, eventId: string): string => spanIdOf(session, `/${eventId}`);

type Data = Record<string, unknown>;
const NONE: Span[] = [];

/** A turn's spans as a tree reads: each parent, then its children in start order (a stable sort: ties keep opening order). */
function preorder(spans: Span[]): Span[] {
  const kids = new Map<string | undefined, Span[]>();
  for (const s of spans) {
    const list = kids.get(s.parent);
    if (list) list.push(s);
    else kids.set(s.parent, [s]);
  }
  const out: Span[] = [];
  const walk = (s: Span) => {
    out.push(s);
    const list = kids.get(s.id);
    if (list) for (const k of list.sort((a, b) => a.start - b.start)) walk(k);
  };
  walk(spans[0]);
  return out;
}

interface ThreadState {
  /** The thread's own span (undefined for the coordinator, whose spans hang on the turn). */
  span?: Span;
  model?: Span;
  /** The model request has had its first fragment (time to first token taken). */
  fragment?: boolean;
}

interface Call {
  span: Span;
  wait?: Span;
  thread: string;
}

/** Folds events in history order; `take()` hands out the spans of the turns that closed since the last call. */
export class TraceFold {
  private turn?: Span;
  private turnNo = 0;
  /** The open turn's spans in start order (the turn first). */
  private spans: Span[] = [];
  private ready: Span[] = [];
  private readonly threads = new Map<string, ThreadState>();
  /** Child threads known by `session.thread_created`: their parent thread ('' for the coordinator). */
  private readonly children = new Map<string, { parent: string; agent?: string }>();
  private readonly calls = new Map<string, Call>();
  private interrupted = false;
  private lastMs?: number;

  constructor(private readonly scope: FoldScope) {}

  add(raw: SessionEvent): void {
    const e = canonicalEvent(raw);
    const at = Date.parse(e.processed_at);
    if (!Number.isFinite(at)) return;
    if (this.lastMs === undefined || at > this.lastMs) this.lastMs = at;
    const data = (e.data ?? {}) as Data;
    const str = (k: string) => (typeof data[k] === 'string' && data[k] !== '' ? (data[k] as string) : undefined);
    const thread = this.threadKey(e.session_thread_id);
    switch (e.type) {
      case 'session.status':
        if (thread === '') this.status(e, str('status'), at, data);
        break;
      case 'session.thread_created': {
        const id = str('thread_id') ?? e.session_thread_id;
        if (!id || id === this.scope.thread) break;
        const parentId = str('parent_thread_id');
        this.children.set(id, { parent: this.threadKey(parentId ?? undefined), agent: str('agent_name') });
        break;
      }
      case 'session.thread_status': {
        const id = str('thread_id') ?? e.session_thread_id;
        if (id !== undefined && id === this.scope.thread) this.status(e, str('status'), at, data);
        else if (id !== undefined && this.children.has(id)) this.threadStatus(e, id, str('status'), at);
        break;
      }
      case 'agent.model_started': {
        const t = this.active(thread, e, at);
        this.endModel(t);
        const model = str('model');
        t.model = this.open(e.id, 'model', model ? `chat ${model}` : 'chat', thread, at, this.parentIn(thread), {
          'gen_ai.operation.name': 'chat',
          ...(model ? { 'gen_ai.request.model': model } : {}),
        });
        t.fragment = false;
        break;
      }
      case 'agent.delta':
      case 'agent.thinking_started':
      case 'agent.message_started': {
        const t = this.threads.get(thread);
        if (t?.model && !t.fragment) {
          t.fragment = true;
          t.model.attrs['svc.ttft_ms'] = at - t.model.start;
          t.model.end = Math.max(t.model.end, at);
        }
        break;
      }
      case 'agent.thinking':
      case 'agent.message': {
        const m = this.threads.get(thread)?.model;
        if (m) m.end = Math.max(m.end, at);
        break;
      }
      case 'agent.tool_use':
      case 'agent.custom_tool_use': {
        const t = this.active(thread, e, at);
        if (t.model) t.model.end = Math.max(t.model.end, at);
        const name = str('name') ?? str('display_name') ?? '(unknown)';
        const custom = e.type === 'agent.custom_tool_use';
        const span = this.open(e.id, 'tool', `execute_tool ${name}`, thread, at, this.parentIn(thread), {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': name,
          'gen_ai.tool.call.id': e.id,
          'gen_ai.tool.type': custom ? 'extension' : 'function',
          ...(str('mcp_server_name') ? { 'svc.mcp_server_name': str('mcp_server_name')! } : {}),
        });
        const call: Call = { span, thread };
        if (custom || data.permission === 'ask') {
          const what = custom ? 'custom_tool_result' : 'confirmation';
          call.wait = this.open(`${e.id}/wait`, 'wait', `await ${what}`, thread, at, span, { 'svc.wait.kind': what });
        }
        this.calls.set(e.id, call);
        break;
      }
      case 'agent.tool_started': {
        const call = this.calls.get(str('event_id') ?? '');
        if (call) call.span.attrs['svc.tool.started_at_ms'] = at - call.span.start;
        break;
      }
      case 'user.tool_confirmation': {
        const call = this.calls.get(str('event_id') ?? '');
        if (!call?.wait) break;
        const result = str('result') ?? 'allow';
        this.close(call.wait, at);
        call.wait.attrs['svc.wait.result'] = result;
        call.wait = undefined;
        if (result === 'deny') this.finishCall(str('event_id')!, at, 'denied');
        break;
      }
      case 'user.custom_tool_result':
      case 'agent.tool_result':
      case 'user.tool_result': {
        const id = str('event_id') ?? '';
        const call = this.calls.get(id);
        if (!call) break;
        if (call.wait) {
          this.close(call.wait, at);
          call.wait = undefined;
        }
        this.finishCall(id, at, data.is_error === true ? 'error' : 'ok');
        break;
      }
      case 'session.error': {
        const span = this.callOf(thread) ?? this.threads.get(thread)?.span ?? this.turn;
        const ev: SpanEvent = { name: 'session.error', at, attrs: { 'error.type': str('error_type') ?? 'unknown' } };
        if (str('message')) ev.attrs['svc.error.message'] = str('message')!;
        if (span) {
          span.events.push(ev);
          span.status = 'error';
          span.end = Math.max(span.end, at);
        }
        break;
      }
      case 'user.interrupt':
        this.interrupted = true;
        this.turn?.events.push({ name: 'interrupt', at, attrs: e.epoch !== undefined ? { 'svc.epoch': e.epoch } : {} });
        break;
    }
  }

  /** The spans of the turns closed so far, in start order within each turn; each is handed out once. */
  take(): Span[] {
    if (this.ready.length === 0) return NONE;
    const out = this.ready;
    this.ready = [];
    return out;
  }

  /** Closes what is still open at the last event (marked `svc.open`) and hands out the rest. */
  finish(): Span[] {
    if (this.turn && this.lastMs !== undefined) {
      this.turn.attrs['svc.open'] = true;
      this.closeTurn(this.lastMs);
    }
    return this.take();
  }

  private threadKey(id: string | undefined): string {
    return id !== undefined && id !== this.scope.thread && this.children.has(id) ? id : '';
  }

  private status(e: SessionEvent, status: string | undefined, at: number, data: Data): void {
    if (status === 'running') {
      if (!this.turn) this.openTurn(e.id, at);
      return;
    }
    if (!this.turn || status === undefined) return;
    const stop = (data.stop_reason as { type?: unknown } | null | undefined)?.type;
    if (stop === 'requires_action' && status === 'idle') {
      this.turn.events.push({ name: 'requires_action', at, attrs: {} });
      return;
    }
    if (typeof stop === 'string') this.turn.attrs['svc.stop_reason'] = stop;
    else if (status === 'terminated') this.turn.attrs['svc.stop_reason'] = 'terminated';
    if (stop === 'error') this.turn.status = 'error';
    this.closeTurn(at);
  }

  private openTurn(anchor: string, at: number): Span {
    this.turnNo++;
    const attrs: Record<string, Attr> = { 'gen_ai.operation.name': 'invoke_agent', 'svc.turn': this.turnNo };
    if (this.scope.agentId) attrs['gen_ai.agent.id'] = this.scope.agentId;
    if (this.scope.agentName) attrs['gen_ai.agent.name'] = this.scope.agentName;
    if (this.scope.thread) attrs['svc.thread_id'] = this.scope.thread;
    this.turn = this.open(anchor, 'turn', `turn ${this.turnNo}`, '', at, undefined, attrs);
    this.interrupted = false;
    return this.turn;
  }

  private closeTurn(at: number): void {
    const outcome = this.interrupted ? 'interrupted' : 'unfinished';
    for (const [id, call] of this.calls) {
      if (call.wait) this.close(call.wait, at);
      call.span.attrs['svc.tool.outcome'] = outcome;
      this.close(call.span, at);
      this.calls.delete(id);
    }
    for (const t of this.threads.values()) {
      this.endModel(t);
      if (t.span) this.close(t.span, at);
    }
    this.threads.clear();
    this.close(this.turn!, at);
    this.ready.push(...preorder(this.spans));
    this.spans = [];
    this.turn = undefined;
  }

  private threadStatus(e: SessionEvent, id: string, status: string | undefined, at: number): void {
    if (status === 'running') {
      this.active(id, e, at);
      return;
    }
    const t = this.threads.get(id);
    if (!t) return;
    this.endModel(t);
    if (t.span) {
      t.span.attrs['svc.thread.status'] = status ?? 'unknown';
      this.close(t.span, at);
    }
    this.threads.delete(id);
  }

  /** The thread's state, its turn (and its span, for a child) opened where an event finds none. */
  private active(thread: string, e: SessionEvent, at: number): ThreadState {
    if (!this.turn) this.openTurn(e.id, at);
    let t = this.threads.get(thread);
    if (t) return t;
    t = {};
    if (thread !== '') {
      const child = this.children.get(thread);
      const parent = this.callOf(child?.parent ?? '') ?? this.threads.get(child?.parent ?? '')?.span ?? this.turn!;
      const attrs: Record<string, Attr> = { 'gen_ai.operation.name': 'invoke_agent', 'svc.thread_id': thread };
      if (child?.agent) attrs['gen_ai.agent.name'] = child.agent;
      t.span = this.open(`${e.id}/thread`, 'thread', child?.agent ? `thread ${child.agent}` : `thread ${thread}`, thread, at, parent, attrs);
    }
    this.threads.set(thread, t);
    return t;
  }

  /** A new span's parent in a thread: the thread's span, or the turn. */
  private parentIn(thread: string): Span {
    return this.threads.get(thread)?.span ?? this.turn!;
  }

  /** The open call of a thread started last: a child thread created now was started by it. */
  private callOf(thread: string): Span | undefined {
    let found: Span | undefined;
    for (const c of this.calls.values()) if (c.thread === thread && (!found || c.span.start >= found.start)) found = c.span;
    return found;
  }

  private finishCall(id: string, at: number, outcome: string): void {
    const call = this.calls.get(id)!;
    call.span.attrs['svc.tool.outcome'] = outcome;
    if (outcome === 'error') call.span.status = 'error';
    this.close(call.span, at);
    this.calls.delete(id);
  }

  private endModel(t: ThreadState): void {
    if (t.model) this.close(t.model, t.model.end);
    t.model = undefined;
  }

  private open(anchor: string, kind: SpanKind, name: string, thread: string, at: number, parent: Span | undefined, attrs: Record<string, Attr>): Span {
    const s: Span = {
      id: spanIdOf(this.scope.session, `${this.scope.thread ?? ''}/${anchor}`),
      parent: parent?.id,
      kind,
      name,
      thread: thread === '' ? this.scope.thread : thread,
      start: at,
      end: at,
      depth: parent ? parent.depth + 1 : 0,
      attrs,
      events: [],
      status: 'unset',
    };
    this.spans.push(s);
    return s;
  }

  private close(s: Span, at: number): void {
    s.end = Math.max(s.end, at);
    if (s.status === 'unset' && s.kind !== 'wait') s.status = 'ok';
  }
}

/** The spans of a history, turn by turn as each closes: never more than one turn's spans held. */
export async function* traceSpans(events: AsyncIterable<SessionEvent>, scope: FoldScope): AsyncGenerator<Span[]> {
  const fold = new TraceFold(scope);
  for await (const e of events) {
    fold.add(e);
    const done = fold.take();
    if (done.length) yield done;
  }
  const rest = fold.finish();
  if (rest.length) yield rest;
}

/** A span as `-o json` prints it: ISO times, the duration, snake_case. */
export function spanJson(s: Span): Record<string, unknown> {
  return {
    span_id: s.id,
    parent_span_id: s.parent ?? null,
    kind: s.kind,
    name: s.name,
    thread_id: s.thread ?? null,
    start: new Date(s.start).toISOString(),
    end: new Date(s.end).toISOString(),
    duration_ms: s.end - s.start,
    status: s.status,
    attributes: s.attrs,
    events: s.events.map((e) => ({ name: e.name, at: new Date(e.at).toISOString(), attributes: e.attrs })),
  };
}
