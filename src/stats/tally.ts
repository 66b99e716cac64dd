/**
 * What a session did, counted from its events one at a time (no commander, no I/O): `HistoryTally` reads a history
 * (or the events a stream delivers) into a `Tally`, plain JSON that sums across sessions and keeps in the cache.
 * Memory stays flat in the number of events: counts, bounded samples (sample.ts), and only the calls still open.
 */
import { firstToken, type ModelStarts } from '../session/ttft';
import type { SessionEvent } from '../wire/events';
import { canonicalEvent } from '../wire/shapes';
import { addCount, setOwn } from '../wire/own-counts';
import { Sample, type SampleData } from './sample';

export interface ToolTally {
  calls: number;
  errors: number;
  /** `agent.tool_started` to `agent.tool_result`, where both are there. */
  durations: SampleData;
}

export interface Tally {
  turns: number;
  model_requests: number;
  tool_calls: number;
  tool_errors: number;
  tools: Record<string, ToolTally>;
  errors: Record<string, number>;
  interrupts: number;
  human_waits: { count: number; seconds: number };
  running_seconds: number;
  /** Each turn's running time (one `running` to the next other status), milliseconds. */
  turn_ms: SampleData;
  /** `agent.model_started` to the request's first streamed fragment, milliseconds. */
  ttft_ms: SampleData;
  /** Turns started on each UTC day (`YYYY-MM-DD`). */
  days: Record<string, number>;
  first_event_at: string | null;
  last_event_at: string | null;
}

export const emptyTally = (): Tally => ({
  turns: 0,
  model_requests: 0,
  tool_calls: 0,
  tool_errors: 0,
  tools: {},
  errors: {},
  interrupts: 0,
  human_waits: { count: 0, seconds: 0 },
  running_seconds: 0,
  turn_ms: {},
  ttft_ms: {},
  days: {},
  first_event_at: null,
  last_event_at: null,
});

/** Tool uses remembered until their result: a history that never answers its calls cannot grow this past the cap. */
const OPEN_CALLS_MAX = 10_000;
const UNKNOWN_TOOL = '(unknown)';

interface OpenCall {
  name: string;
  startedAt?: number;
}

type Data = Record<string, unknown>;

export interface TallyScope {
  /** Reading one thread's history: its `session.thread_status` changes are its turns. */
  thread?: string;
}

/** Reads events in history order into a Tally. */
export class HistoryTally {
  private readonly t = emptyTally();
  private readonly tools = new Map<string, { calls: number; errors: number; durations: Sample }>();
  private readonly turnMs = new Sample();
  private readonly ttft = new Sample();
  private readonly calls = new Map<string, OpenCall>();
  /** Per thread ('' for the coordinator): when its model request started, until its first fragment. */
  private modelStarts: ModelStarts = {};
  /** The calls awaiting a person (a confirmation or a custom tool result), and since when one has been. */
  private readonly awaited = new Set<string>();
  private waitSince?: number;
  private runningSince?: number;
  private firstMs?: number;
  private lastMs?: number;

  constructor(private readonly scope: TallyScope = {}) {}

  /** The one definition of time to first token (src/session/ttft.ts). */
  private firstToken(e: SessionEvent): void {
    const step = firstToken(this.modelStarts, e);
    if (!step) return;
    this.modelStarts = step.starts;
    if (step.ttftMs !== undefined) this.ttft.add(step.ttftMs);
  }

  add(raw: SessionEvent): void {
    // A null event, or one without a string type, is no event svc knows: skipped, as an unknown type is.
    if (raw === null || typeof raw !== 'object' || typeof raw.type !== 'string') return;
    const e = canonicalEvent(raw);
    const at = typeof e.processed_at === 'string' ? Date.parse(e.processed_at) : NaN;
    const ok = Number.isFinite(at);
    if (ok) {
      if (this.firstMs === undefined || at < this.firstMs) [this.firstMs, this.t.first_event_at] = [at, e.processed_at];
      if (this.lastMs === undefined || at >= this.lastMs) [this.lastMs, this.t.last_event_at] = [at, e.processed_at];
    }
    const data = (e.data ?? {}) as Data;
    const str = (k: string) => (typeof data[k] === 'string' ? (data[k] as string) : undefined);
    switch (e.type) {
      case 'session.status':
        if (e.session_thread_id === undefined) this.status(str('status'), at);
        break;
      case 'session.thread_status':
        if (this.scope.thread !== undefined && (str('thread_id') ?? e.session_thread_id) === this.scope.thread) this.status(str('status'), at);
        break;
      case 'agent.model_started':
        this.t.model_requests++;
        this.firstToken(e);
        break;
      case 'agent.thinking_started':
      case 'agent.message_started':
        this.firstToken(e);
        break;
      case 'agent.tool_use':
      case 'agent.custom_tool_use': {
        const name = str('name') ?? str('display_name') ?? UNKNOWN_TOOL;
        this.t.tool_calls++;
        this.tool(name).calls++;
        this.open(e.id, { name });
        if (e.type === 'agent.custom_tool_use' || data.permission === 'ask') this.await(e.id, at);
        break;
      }
      case 'agent.tool_started': {
        const call = this.calls.get(str('event_id') ?? '');
        if (call && ok) call.startedAt = at;
        break;
      }
      case 'agent.tool_result': {
        const id = str('event_id') ?? '';
        const call = this.calls.get(id);
        this.calls.delete(id);
        this.answer(id, at);
        const tool = this.tool(call?.name ?? UNKNOWN_TOOL);
        if (call?.startedAt !== undefined && ok) tool.durations.add(at - call.startedAt);
        if (data.is_error === true) {
          this.t.tool_errors++;
          tool.errors++;
        }
        break;
      }
      case 'user.custom_tool_result': {
        const id = str('event_id') ?? '';
        const call = this.calls.get(id);
        this.calls.delete(id);
        this.answer(id, at);
        if (data.is_error === true) {
          this.t.tool_errors++;
          this.tool(call?.name ?? UNKNOWN_TOOL).errors++;
        }
        break;
      }
      case 'user.tool_confirmation':
        this.answer(str('event_id') ?? '', at);
        break;
      case 'session.error': {
        const type = str('error_type') ?? 'unknown';
        addCount(this.t.errors, type, 1);
        break;
      }
      case 'user.interrupt':
        this.t.interrupts++;
        this.endWaits(at);
        break;
    }
  }

  /** The figures so far; a turn still running counts its time up to the last event. */
  result(): Tally {
    const t: Tally = { ...this.t, human_waits: { ...this.t.human_waits }, errors: { ...this.t.errors }, days: { ...this.t.days } };
    if (this.runningSince !== undefined && this.lastMs !== undefined) t.running_seconds = seconds(msOf(t.running_seconds) + this.lastMs - this.runningSince);
    t.tools = Object.fromEntries([...this.tools].map(([name, v]) => [name, { calls: v.calls, errors: v.errors, durations: v.durations.data() }]));
    t.turn_ms = this.turnMs.data();
    t.ttft_ms = this.ttft.data();
    return t;
  }

  private status(status: string | undefined, at: number): void {
    if (status === 'running') {
      if (this.runningSince !== undefined) return;
      this.t.turns++;
      // A turn with no time of its own counts, on no day.
      if (Number.isFinite(at)) addCount(this.t.days, new Date(at).toISOString().slice(0, 10), 1);
      this.runningSince = Number.isFinite(at) ? at : undefined;
      return;
    }
    if (this.runningSince !== undefined && Number.isFinite(at)) {
      const ms = at - this.runningSince;
      this.t.running_seconds = seconds(msOf(this.t.running_seconds) + ms);
      this.turnMs.add(ms);
    }
    this.runningSince = undefined;
    if (status === 'terminated') this.endWaits(at);
  }

  private tool(name: string) {
    let t = this.tools.get(name);
    if (!t) this.tools.set(name, (t = { calls: 0, errors: 0, durations: new Sample() }));
    return t;
  }

  private open(id: string, call: OpenCall): void {
    if (this.calls.size >= OPEN_CALLS_MAX) this.calls.delete(this.calls.keys().next().value!);
    this.calls.set(id, call);
  }

  private await(id: string, at: number): void {
    if (this.awaited.size >= OPEN_CALLS_MAX) return;
    if (this.awaited.size === 0) {
      this.t.human_waits.count++;
      this.waitSince = Number.isFinite(at) ? at : undefined;
    }
    this.awaited.add(id);
  }

  private answer(id: string, at: number): void {
    if (!this.awaited.delete(id) || this.awaited.size > 0) return;
    this.closeWait(at);
  }

  private endWaits(at: number): void {
    if (this.awaited.size === 0) return;
    this.awaited.clear();
    this.closeWait(at);
  }

  private closeWait(at: number): void {
    if (this.waitSince !== undefined && Number.isFinite(at)) this.t.human_waits.seconds = seconds(msOf(this.t.human_waits.seconds) + at - this.waitSince);
    this.waitSince = undefined;
  }
}

const msOf = (s: number) => Math.round(s * 1000);
const seconds = (ms: number) => Math.round(ms) / 1000;

/** Adds `b` into `a` (figures of many sessions). */
export function addTally(a: Tally, b: Tally): Tally {
  a.turns += b.turns;
  a.model_requests += b.model_requests;
  a.tool_calls += b.tool_calls;
  a.tool_errors += b.tool_errors;
  a.interrupts += b.interrupts;
  a.human_waits = { count: a.human_waits.count + b.human_waits.count, seconds: seconds(msOf(a.human_waits.seconds) + msOf(b.human_waits.seconds)) };
  a.running_seconds = seconds(msOf(a.running_seconds) + msOf(b.running_seconds));
  for (const [k, n] of Object.entries(b.errors)) addCount(a.errors, k, n);
  for (const [k, n] of Object.entries(b.days)) addCount(a.days, k, n);
  for (const [name, tb] of Object.entries(b.tools)) {
    const ta = Object.hasOwn(a.tools, name) ? a.tools[name] : undefined;
    setOwn(
      a.tools,
      name,
      ta ? { calls: ta.calls + tb.calls, errors: ta.errors + tb.errors, durations: merged(ta.durations, tb.durations) } : structuredClone(tb),
    );
  }
  a.turn_ms = merged(a.turn_ms, b.turn_ms);
  a.ttft_ms = merged(a.ttft_ms, b.ttft_ms);
  if (b.first_event_at !== null && (a.first_event_at === null || Date.parse(b.first_event_at) < Date.parse(a.first_event_at)))
    a.first_event_at = b.first_event_at;
  if (b.last_event_at !== null && (a.last_event_at === null || Date.parse(b.last_event_at) > Date.parse(a.last_event_at))) a.last_event_at = b.last_event_at;
  return a;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCounts = (v: unknown) => isRecord(v) && Object.values(v).every(isCount);
const isSample = (v: unknown) =>
  isRecord(v) &&
  (v.v === undefined || (Array.isArray(v.v) && v.v.every(isCount))) &&
  (v.b === undefined || isCounts(v.b)) &&
  (v.z === undefined || isCount(v.z));
const isTime = (v: unknown) => v === null || (typeof v === 'string' && Number.isFinite(Date.parse(v)));

/** Whether `t` has a Tally's shape throughout (what a cache file holds is checked before it is summed). */
export function isTally(t: unknown): t is Tally {
  if (!isRecord(t)) return false;
  const counts = ['turns', 'model_requests', 'tool_calls', 'tool_errors', 'interrupts', 'running_seconds'] as const;
  const waits = t.human_waits;
  return (
    counts.every((k) => isCount(t[k])) &&
    isRecord(waits) &&
    isCount(waits.count) &&
    isCount(waits.seconds) &&
    isCounts(t.errors) &&
    isCounts(t.days) &&
    isSample(t.turn_ms) &&
    isSample(t.ttft_ms) &&
    isTime(t.first_event_at) &&
    isTime(t.last_event_at) &&
    isRecord(t.tools) &&
    Object.values(t.tools).every((x) => isRecord(x) && isCount(x.calls) && isCount(x.errors) && isSample(x.durations))
  );
}

function merged(a: SampleData, b: SampleData): SampleData {
  const s = Sample.from(a);
  s.merge(b);
  return s.data();
}
