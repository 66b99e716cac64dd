import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { sessions } from '../api/sessions';
import { historyPages } from '../api/stream/backfill';
import type { Follow } from '../api/stream/types';
import { payloadOf, type SessionEvent } from '../wire/events';
import { canonicalEvent } from '../wire/shapes';
import { runsOnWorker } from '../wire/tools';
import type { Clock } from './clock';
import { describe, type StopOutcome } from './lease';
import type { Fields, WorkerLog } from './log';
import type { WorkerMetrics } from './metrics';
import { runTool, type ToolContext, type ToolResult } from './tools/index';

interface Call {
  name: string;
  input: unknown;
  ask: boolean;
}

interface Running {
  ctl: AbortController;
  /** Answered by someone else meanwhile: the result is dropped. */
  superseded: boolean;
  done: Promise<void>;
}

export interface SessionDeps {
  client: ApiClient;
  follow: Follow;
  log: WorkerLog;
  clock: Clock;
  tools: Omit<ToolContext, 'signal'>;
  /** How long an idle session keeps its row before it is completed (`--max-idle`), so a follow-up needs no new claim. */
  maxIdleMs: number;
  metrics?: WorkerMetrics;
  /** Aborted when the worker drains: an idle session ends its row at once instead of waiting out `maxIdleMs`. */
  draining?: AbortSignal;
  /** Told of each tool run here (`--otlp-endpoint`: a span in the session's trace). */
  toolRun?: (run: ToolRun) => void;
}

/** One tool call run by this worker, for its span. */
export interface ToolRun {
  sessionId: string;
  /** The `agent.tool_use` event's ID. */
  callId: string;
  name: string;
  startMs: number;
  endMs: number;
  outcome: 'ok' | 'error' | 'cancelled';
}

/**
 * What the session follower needs from whoever holds the row: the in-process worker's Lease, or `worker serve`
 * holding only the session token while its parent worker keeps the lease.
 */
export interface Hold {
  /** Aborted when the row is no longer ours: nothing more may be written for it. */
  readonly lost: AbortSignal;
  lose(reason: string): void;
  /** The session is idle with nothing running: end the row here (`busy` = new work arrived, serve on). */
  complete(): Promise<StopOutcome>;
  /** Pause before a completion that got no answer is tried again. */
  readonly intervalMs: number;
  /** What completing means here, for the log: the row ends, or serving ends and the lease holder ends the row. */
  readonly completion: { starting: string; done: string };
}

/** Pause before the stream is followed again after it failed. */
const REFOLLOW_MS = 1000;

/**
 * Follows one session with its work token and answers its sandbox tool calls (docs/service.md: environments and
 * work): each `agent.tool_use` without a result yet runs here and is answered with `user.tool_result`.
 * When the session is idle with nothing running, the row is stopped as `completed`; a 409 keeps it served.
 */
export class SessionWorker {
  private readonly calls = new Map<string, Call>();
  private readonly answered = new Set<string>();
  private readonly allowed = new Set<string>();
  private readonly running = new Map<string, Running>();
  private idle = false;
  /** When the session was last seen going idle with nothing running; cleared by any sign of new work. */
  private idleSince?: number;
  private activityCtl = new AbortController();
  /** False while history is replayed: calls start only once it is known which of them are still open. */
  private live = false;
  private finishing = false;
  private readonly doneCtl = new AbortController();
  private resolveDone!: (completed: boolean) => void;
  /** Resolves true when the row was completed, false when it ended otherwise (lost, shut down). */
  readonly done = new Promise<boolean>((r) => (this.resolveDone = r));

  constructor(
    private readonly sessionId: string,
    private readonly lease: Hold,
    private readonly deps: SessionDeps,
    private readonly fields: Fields,
  ) {
    lease.lost.addEventListener('abort', () => this.end(false), { once: true });
  }

  /** Reads history, then follows live events until the row is completed, lost or ended. */
  async serve(): Promise<void> {
    while (!this.doneCtl.signal.aborted) {
      try {
        const cursor = await this.replayHistory();
        this.goLive();
        for await (const item of this.deps.follow({ client: this.deps.client, sessionId: this.sessionId, cursor, signal: this.doneCtl.signal })) {
          if (item.kind === 'event') this.onEvent(item.event);
        }
      } catch (e) {
        if (this.doneCtl.signal.aborted) return;
        if (e instanceof ApiError && [401, 403, 404].includes(e.status)) return this.lease.lose(`the session refused its work token: ${describe(e)}`);
        this.deps.log.warn('session stream failed; following it again', { ...this.fields, error: describe(e) });
      }
      if (this.doneCtl.signal.aborted) return;
      this.live = false;
      await this.deps.clock.delay(REFOLLOW_MS, this.doneCtl.signal);
    }
  }

  /** Cancels every running tool; unless the lease is lost, their (cancelled) results are written back. */
  async cancelTools(): Promise<void> {
    for (const r of this.running.values()) r.ctl.abort();
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  /** Stops following; `completed` tells whether the row was completed here. */
  end(completed: boolean): void {
    if (this.doneCtl.signal.aborted) return;
    this.doneCtl.abort();
    // On a lost lease tools stop at once; on shutdown they run on until cancelTools() after the first stop.
    if (this.lease.lost.aborted) for (const r of this.running.values()) r.ctl.abort();
    this.resolveDone(completed);
  }

  /** The whole history, oldest first; returns the cursor that resumes the stream right after it. */
  private async replayHistory(): Promise<string | undefined> {
    let cursor: string | undefined;
    for await (const page of historyPages({ client: this.deps.client, sessionId: this.sessionId, signal: this.doneCtl.signal })) {
      for (const ev of page.items) this.onEvent(ev);
      cursor = page.stream_cursor ?? cursor;
    }
    return cursor;
  }

  private goLive(): void {
    this.live = true;
    for (const id of this.calls.keys()) this.maybeRun(id);
    this.maybeFinish();
  }

  private onEvent(raw: SessionEvent): void {
    // The service's other spellings (session.status_idle, agent.mcp_tool_* with mcp_server_name, …) read as the spec's.
    const ev = canonicalEvent(raw);
    switch (ev.type) {
      case 'agent.tool_use': {
        const d = payloadOf(ev, 'agent.tool_use') ?? {};
        // MCP and service-side tools never run on a worker; an unknown name gets an error result from runTool.
        if (!runsOnWorker(d)) return;
        this.calls.set(ev.id, { name: String(d.name), input: d.input, ask: d.permission === 'ask' });
        return this.maybeRun(ev.id);
      }
      case 'user.tool_confirmation': {
        const d = payloadOf(ev, 'user.tool_confirmation') ?? {};
        const call = String(d.event_id);
        if (d.result === 'allow') this.allowed.add(call);
        else this.answered.add(call);
        return this.maybeRun(call);
      }
      case 'agent.tool_result':
      case 'user.tool_result': {
        const call = String((payloadOf(ev, 'agent.tool_result') ?? payloadOf(ev, 'user.tool_result'))?.event_id);
        this.answered.add(call);
        const r = this.running.get(call);
        if (r && ev.type === 'agent.tool_result') {
          r.superseded = true;
          r.ctl.abort();
        }
        return;
      }
      case 'session.status':
        this.idle = payloadOf(ev, 'session.status')?.status === 'idle';
        if (!this.idle) {
          this.idleSince = undefined;
          this.activityCtl.abort();
        }
        return this.maybeFinish();
    }
  }

  /** Aborted at the next sign of new work (a status other than idle, a tool call), ending an idle wait. */
  private activity(): AbortSignal {
    if (this.activityCtl.signal.aborted) this.activityCtl = new AbortController();
    return this.activityCtl.signal;
  }

  private maybeRun(id: string): void {
    const call = this.calls.get(id);
    if (!call || !this.live || this.answered.has(id) || this.running.has(id)) return;
    if (call.ask && !this.allowed.has(id)) return;
    if (this.doneCtl.signal.aborted || this.lease.lost.aborted) return;
    const ctl = new AbortController();
    const entry: Running = { ctl, superseded: false, done: Promise.resolve() };
    this.running.set(id, entry);
    entry.done = this.run(id, call, entry).finally(() => {
      this.running.delete(id);
      this.maybeFinish();
    });
  }

  private async run(id: string, call: Call, entry: Running): Promise<void> {
    const f = { ...this.fields, tool: call.name, event_id: id };
    const started = this.deps.clock.now();
    this.deps.log.info('tool started', f);
    const result = await runTool(call.name, call.input, { ...this.deps.tools, signal: entry.ctl.signal });
    const ms = this.deps.clock.now() - started;
    const outcome = entry.ctl.signal.aborted ? 'cancelled' : result.is_error ? 'error' : 'ok';
    this.deps.metrics?.toolCall(call.name, outcome, ms / 1000);
    this.deps.toolRun?.({ sessionId: this.sessionId, callId: id, name: call.name, startMs: started, endMs: started + ms, outcome });
    // Fencing: a lost lease writes nothing more; a call answered elsewhere keeps that answer.
    if (this.lease.lost.aborted || entry.superseded)
      return this.deps.log.info('tool result dropped', { ...f, ms, reason: this.lease.lost.aborted ? 'lease lost' : 'answered elsewhere' });
    this.deps.log.info('tool finished', { ...f, ms, is_error: Boolean(result.is_error) });
    await this.writeBack(id, result, f);
  }

  /** `user.tool_result` carries no generation: the session work token is the fencing. */
  private async writeBack(id: string, result: ToolResult, f: Fields): Promise<void> {
    try {
      await sessions.sendEvents(this.deps.client, this.sessionId, { events: [{ type: 'user.tool_result', data: { event_id: id, ...result } }] });
      this.answered.add(id);
      this.deps.log.info('tool result written', f);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return this.lease.lose('the session work token was revoked');
      this.deps.log.error('tool result not written', { ...f, error: describe(e) });
    }
  }

  /** Idle with nothing running: complete the row; a busy session answers 409 and is served on. */
  private maybeFinish(): void {
    if (!this.live || !this.idle || this.running.size > 0 || this.finishing || this.doneCtl.signal.aborted) return;
    this.finishing = true;
    void this.finish();
  }

  private async finish(): Promise<void> {
    this.idleSince ??= this.deps.clock.now();
    const left = this.deps.draining?.aborted ? 0 : this.idleSince + this.deps.maxIdleMs - this.deps.clock.now();
    if (left > 0) {
      // --max-idle: the row is kept for a follow-up; any new activity clears `idle` and the wait ends unused.
      this.deps.log.info('session idle; keeping the row', { ...this.fields, max_idle_ms: this.deps.maxIdleMs });
      const until = [this.doneCtl.signal, this.activity(), ...(this.deps.draining ? [this.deps.draining] : [])];
      await this.deps.clock.delay(left, AbortSignal.any(until));
      this.finishing = false;
      return this.maybeFinish();
    }
    this.deps.log.info(this.lease.completion.starting, this.fields);
    const outcome = await this.lease.complete();
    this.finishing = false;
    if (outcome === 'stopped') {
      this.deps.log.info(this.lease.completion.done, this.fields);
      return this.end(true);
    }
    if (outcome === 'busy') this.deps.log.info('session busy; keeping the lease', this.fields);
    if (outcome === 'failed') {
      // No answer: try again after a beat, while the lease is still held.
      await this.deps.clock.delay(this.lease.intervalMs, this.doneCtl.signal);
      this.maybeFinish();
    }
  }
}
