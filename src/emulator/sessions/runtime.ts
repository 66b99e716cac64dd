import { DEFAULT_PROMPT, type DeltaEvent, type InputMode, type StopReason } from '../../wire/events';
import { LIMITS } from '../../wire/limits';
import { conflict, precondition } from '../errors';
import type { Faults } from '../faults';
import type { Services } from '../services';
import { newId, nowIso, type Collection, type Rec } from '../store';
import { messageText, type MessageEvent, type ReplyEvent, type UserEvent } from './input';
import { EventLog } from './log';
import { childReply, runScript, type ModelContext, type ReplyData, type ReplyKind } from './model';
import { SessionPlatform, type EgressLookup } from './platform';
import { StreamHub } from './stream';
import { PendingReplies } from './replies';
import { runsOnWorker } from '../../wire/tools';

export type SessionRec = Rec & {
  agent_id: string;
  agent_version: number;
  environment_id: string | null;
  title: string;
  status: 'idle' | 'running' | 'rescheduling' | 'terminated';
  stopping: boolean;
  interrupted: boolean;
  control_epoch: string;
  continue_pending: boolean;
  requires_action: boolean;
  stop_reason: StopReason | null;
  agent_overrides: Record<string, unknown>;
  resources: Array<{ type: string; id: string; file_id?: string }>;
  vault_ids: string[];
  metadata: Record<string, string>;
  archived_at: string | null;
  /** Write-only headers of the `agent_overrides.mcp_servers`, by server identity. */
  _mcp_headers?: Record<string, Record<string, string>>;
};

export type ThreadRec = Rec & {
  session_id: string;
  parent_thread_id: string | null;
  agent_name: string;
  status: 'idle' | 'running' | 'cancelled';
  interrupted: boolean;
  control_epoch: string;
  archived_at: string | null;
};

export interface PendingInput {
  event_id: string;
  type: InputMode;
  events: MessageEvent[];
  queued_at: string;
}

export interface RuntimeDeps {
  sessions: Collection<SessionRec>;
  threads: Collection<ThreadRec>;
  services: Services;
  faults: Faults;
  heartbeatMs: number;
  stepMs: number;
  model: string;
  /** The session's effective sub-agent roster (overrides, else the agent version's). */
  roster: unknown[];
  /** Names of the effective agent's MCP servers. */
  mcpServers: string[];
  /** The effective agent's `tools` entries (none when omitted). */
  tools?: unknown[];
  /** What the routes of the session's outbound requests depend on (none: every request goes direct). */
  egress?: EgressLookup;
}

/** How long a Continue takes to start: long enough for a client to see `continue_pending`. */
const CONTINUE_START_MS = 100;

class Cancelled extends Error {}

/** `p`, marked handled: its awaiter still sees the rejection, but one nobody awaits cannot end the process. */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/** One execution (a turn of the coordinator, or a child thread): cancelled at its next step boundary, or at once while it waits. */
class Execution {
  cancelled = false;
  private readonly onCancel = new Set<() => void>();

  cancel(): void {
    this.cancelled = true;
    for (const f of this.onCancel) f();
  }

  async step(ms: number): Promise<void> {
    await new Promise<void>((r) => setTimeout(r, ms).unref());
    if (this.cancelled) throw new Cancelled();
  }

  /** `p`, or Cancelled as soon as the execution is cancelled. */
  wait<T>(p: Promise<T>): Promise<T> {
    const waited = this.cancelled
      ? Promise.reject(new Cancelled())
      : new Promise<T>((resolve, reject) => {
          const stop = () => reject(new Cancelled());
          this.onCancel.add(stop);
          p.then(resolve, reject).finally(() => this.onCancel.delete(stop));
        });
    return quiet(waited);
  }
}

const nextEpoch = (e: string): string => (BigInt(e) + 1n).toString();

/** A session's live state: history, streams, the input queue, the running turn, threads and control. */
export class SessionRuntime {
  readonly log: EventLog;
  readonly hub: StreamHub;
  readonly queue: PendingInput[] = [];
  /** MCP connections, tool loading and outbound requests, kept for the session's life (admin paths). */
  readonly platform: SessionPlatform;
  private readonly replies = new PendingReplies();
  /** Running child threads; an entry stays until its execution has wound down. */
  private readonly children = new Map<string, { exec: Execution; done: Promise<void> }>();
  private turn?: { exec: Execution; steered: string[] };

  constructor(
    readonly rec: SessionRec,
    readonly coordinator: ThreadRec,
    private readonly deps: RuntimeDeps,
    log?: EventLog,
  ) {
    this.log = log ?? new EventLog();
    this.platform = new SessionPlatform(deps.egress);
    this.hub = new StreamHub(this.log, deps.faults, deps.heartbeatMs);
  }

  get selfHosted(): boolean {
    const env = this.rec.environment_id ? this.deps.services.environments?.get(this.rec.environment_id) : undefined;
    return env?.config.type === 'self_hosted';
  }

  /** An active execution, a wind-down, a pending start or a running child thread (what delete waits for). */
  get active(): boolean {
    return Boolean(this.turn) || this.rec.stopping || this.rec.continue_pending || this.children.size > 0;
  }

  private set(changes: Partial<SessionRec>): void {
    this.deps.sessions.touch(this.rec, changes);
  }

  private setThread(t: ThreadRec, changes: Partial<ThreadRec>): void {
    this.deps.threads.touch(t, changes);
  }

  /** Appends an event to history and fans it out; returns its id. */
  emit(type: string, data?: Record<string, unknown>, o: { threadId?: string; id?: string; epoch?: string } = {}): string {
    const ev: Record<string, unknown> = { id: o.id ?? newId('sevt'), type, processed_at: nowIso() };
    if (o.threadId !== undefined) ev.session_thread_id = o.threadId;
    if (o.epoch !== undefined) ev.epoch = o.epoch;
    if (data !== undefined) ev.data = data;
    const json = JSON.stringify(ev);
    this.hub.publish(this.log.append(json, type, o.threadId), type, json);
    return ev.id as string;
  }

  private delta(threadId: string | undefined, data: DeltaEvent['data']): void {
    if (this.hub.size === 0) return;
    this.hub.publishDelta(
      threadId,
      JSON.stringify(threadId === undefined ? { type: 'agent.delta', data } : { type: 'agent.delta', session_thread_id: threadId, data }),
    );
  }

  // ---- input ----

  /** Accepts a validated send ; interrupt is handled by `interrupt`. */
  send(mode: InputMode, events: UserEvent[]): { event_id?: string } {
    if (this.rec.status === 'terminated') precondition('the session is terminated and takes no new input');
    const messages = events.filter((e): e is MessageEvent => e.type === 'user.message');
    const replies = events.map((e, i) => ({ e, i })).filter(({ e }) => e.type !== 'user.message');
    if (messages.length && this.queue.length >= LIMITS.pendingInputs) precondition(`the session already has ${LIMITS.pendingInputs} pending inputs`);
    for (const { e, i } of replies) this.replies.check(e as ReplyEvent, i);
    let eventId: string | undefined;
    for (const { e } of replies) eventId = this.reply(e as ReplyEvent) ?? eventId;
    if (messages.length) {
      const entry: PendingInput = { event_id: newId('sevt'), type: mode, events: messages, queued_at: nowIso() };
      this.queue.push(entry);
      eventId = entry.event_id;
      this.pump();
    }
    return eventId === undefined ? {} : { event_id: eventId };
  }

  /** The first valid reply for a call wins; later ones change nothing. */
  private reply(e: ReplyEvent): string | undefined {
    const taken = this.replies.take(e);
    if (!taken) return undefined;
    const id = this.emit(e.type, e.data, { threadId: taken.threadId });
    if (!taken.wake) return id;
    taken.wake();
    this.refreshRequiresAction();
    return id;
  }

  /** Starts the next queued input when nothing holds the session back. */
  private pump(): void {
    const r = this.rec;
    if (r.status === 'terminated' || this.turn || r.stopping || r.interrupted || r.continue_pending) return;
    const entry = this.queue.shift();
    if (entry) this.startTurn(entry);
  }

  private consume(entry: PendingInput): string {
    // The queued input's event_id becomes the id of its (first) message.
    entry.events.forEach((e, i) => this.emit('user.message', e.data, { id: i === 0 ? entry.event_id : undefined }));
    return entry.events.map(messageText).filter(Boolean).join('\n') || DEFAULT_PROMPT;
  }

  private startTurn(entry: PendingInput): void {
    const turn = { exec: new Execution(), steered: [] as string[] };
    this.turn = turn;
    const text = this.consume(entry);
    this.set({ status: 'running', stop_reason: null });
    this.setThread(this.coordinator, { status: 'running' });
    this.emit('session.status', { status: 'running' });
    void this.runTurn(turn, text);
  }

  private async runTurn(turn: { exec: Execution; steered: string[] }, text: string): Promise<void> {
    const ctx = this.context(turn.exec, undefined);
    let outcome: StopReason;
    try {
      outcome = await runScript(ctx, text);
      // Steered input joins the running turn.
      for (let s = turn.steered.shift(); s !== undefined; s = turn.steered.shift()) outcome = await runScript(ctx, s);
    } catch (e) {
      if (!(e instanceof Cancelled)) return this.failTurn(turn, e);
      // The wind-down ends when every child thread has reached its step boundary too.
      await Promise.all([...this.children.values()].map((c) => c.done));
      if (this.turn === turn && this.rec.stopping) this.finishStop();
      return;
    }
    if (this.turn !== turn) return;
    this.turn = undefined;
    this.set({ status: 'idle', stop_reason: outcome, requires_action: false });
    this.setThread(this.coordinator, { status: 'idle' });
    this.emit('session.status', { status: 'idle', stop_reason: outcome });
    this.pump();
  }

  /** A fault of the emulator itself ends the turn as a failed execution rather than the process. */
  private failTurn(turn: { exec: Execution }, e: unknown): void {
    if (this.turn !== turn) return;
    this.turn = undefined;
    const stop_reason: StopReason = { type: 'error' };
    this.emit('session.error', { error_type: 'internal_error', message: `the emulator failed: ${(e as Error)?.message ?? String(e)}` });
    this.set({ status: 'idle', stop_reason, requires_action: false });
    this.setThread(this.coordinator, { status: 'idle' });
    this.emit('session.status', { status: 'idle', stop_reason });
    this.pump();
  }

  /** Steer entries are taken at the coordinator's step boundaries. */
  private takeSteers(): void {
    const turn = this.turn;
    if (!turn) return;
    for (let i = 0; i < this.queue.length;) {
      if (this.queue[i].type !== 'steer') {
        i++;
        continue;
      }
      turn.steered.push(this.consume(this.queue.splice(i, 1)[0]));
    }
  }

  private context(exec: Execution, threadId: string | undefined): ModelContext {
    return {
      model: this.deps.model,
      selfHosted: this.selfHosted,
      canDelegate: this.deps.roster.length > 0,
      mcpServers: this.deps.mcpServers,
      tools: this.deps.tools ?? [],
      platform: this.platform,
      step: async (ms = this.deps.stepMs) => {
        await exec.step(ms);
        if (threadId === undefined) this.takeSteers();
      },
      emit: (type, data, id) => {
        const emitted = this.emit(type, data, { threadId, id });
        if (type === 'agent.tool_use' && this.selfHosted && runsOnWorker(data ?? {})) this.replies.workerCall(emitted, threadId, data?.permission === 'allow');
        return emitted;
      },
      delta: (data) => this.delta(threadId, data),
      newEventId: () => newId('sevt'),
      // The model may start waiting before a step and await after it: a step that throws first leaves the wait unawaited.
      awaitReplies: (calls) => quiet(this.awaitReplies(exec, threadId, calls)),
      requestWorker: () => this.deps.services.work?.ensureRow(this.rec.id, this.rec.environment_id!),
      delegate: (n, ms) => this.delegate(exec, n, ms),
      deliverArtifact: (name) =>
        this.deps.services.artifacts?.deliver(this.rec.id, name, Buffer.from(`artifact ${name} of session ${this.rec.id}\n`), 'text/plain'),
    };
  }

  private async awaitReplies(exec: Execution, threadId: string | undefined, calls: Array<{ id: string; kind: ReplyKind }>): Promise<Map<string, ReplyData>> {
    const results = this.replies.await(calls, threadId);
    this.refreshRequiresAction();
    try {
      return new Map(await exec.wait(Promise.all(results)));
    } finally {
      this.replies.release(calls.map((c) => c.id));
    }
  }

  /**
   * `requires_action` and `stop_reason.event_ids` list the confirmations and custom results still awaited
   *; while the coordinator waits on them the session is idle with stop reason requires_action.
   */
  private refreshRequiresAction(): void {
    if (!this.turn) return;
    const awaited = this.replies.awaitingUser();
    if (awaited.length) {
      const stop_reason: StopReason = { type: 'requires_action', event_ids: awaited.map((w) => w.id) };
      const coordinatorWaits = awaited.some((w) => w.threadId === undefined);
      const becameIdle = coordinatorWaits && this.rec.status !== 'idle';
      this.set({ requires_action: true, stop_reason, status: coordinatorWaits ? 'idle' : this.rec.status });
      if (becameIdle) this.emit('session.status', { status: 'idle', stop_reason });
    } else if (this.rec.requires_action) {
      const resumed = this.rec.status === 'idle';
      this.set({ requires_action: false, stop_reason: null, status: 'running' });
      if (resumed) this.emit('session.status', { status: 'running' });
    }
  }

  private async delegate(exec: Execution, n: number, stepMs?: number): Promise<void> {
    const runs: Promise<void>[] = [];
    for (let i = 1; i <= n; i++) {
      const agent_name = `worker-${i}`;
      const t = this.deps.threads.insert({
        session_id: this.rec.id,
        parent_thread_id: this.coordinator.id,
        agent_name,
        status: 'running',
        interrupted: false,
        control_epoch: this.rec.control_epoch,
        archived_at: null,
      } as unknown as ThreadRec);
      this.emit('session.thread_created', { thread_id: t.id, parent_thread_id: this.coordinator.id, agent_name }, { threadId: t.id });
      this.emit('session.thread_status', { thread_id: t.id, status: 'running' }, { threadId: t.id });
      const child = new Execution();
      const done = this.runChild(t, child, i, stepMs);
      this.children.set(t.id, { exec: child, done });
      runs.push(done);
    }
    await exec.wait(Promise.all(runs));
  }

  private async runChild(t: ThreadRec, exec: Execution, index: number, stepMs?: number): Promise<void> {
    try {
      await childReply(this.context(exec, t.id), index, stepMs);
      this.setThread(t, { status: 'idle' });
      this.emit('session.thread_status', { thread_id: t.id, status: 'idle' }, { threadId: t.id });
    } catch (e) {
      // A child's own fault ends that thread, never the process (its promise is awaited by the wind-down).
      if (!(e instanceof Cancelled)) {
        this.emit('session.error', { error_type: 'internal_error', message: `the emulator failed: ${(e as Error)?.message ?? String(e)}` }, { threadId: t.id });
        this.setThread(t, { status: 'idle' });
        this.emit('session.thread_status', { thread_id: t.id, status: 'idle' }, { threadId: t.id });
      }
    } finally {
      this.children.delete(t.id);
    }
  }

  private cancelChildren(changes: Partial<ThreadRec>): void {
    for (const [id, { exec }] of this.children) {
      if (exec.cancelled) continue;
      exec.cancel();
      const t = this.deps.threads.get(id);
      if (t) {
        this.setThread(t, { status: 'cancelled', ...changes });
        this.emit('session.thread_status', { thread_id: id, status: 'cancelled' }, { threadId: id });
      }
    }
  }

  // ---- control ----

  /** `user.interrupt` : 202 with the epoch; stopping now, interrupted when the wind-down ends. */
  interrupt(expected: string | undefined): string {
    const r = this.rec;
    if (r.status === 'terminated') precondition('the session is terminated and takes no new input');
    if (expected !== undefined && expected !== r.control_epoch) conflict(`expected_control_epoch ${expected} is stale; the session is at ${r.control_epoch}`);
    if (r.interrupted || r.stopping) return r.control_epoch;
    const epoch = nextEpoch(r.control_epoch);
    this.set({ stopping: true, control_epoch: epoch });
    // API-NOTES: the interrupt acknowledgement is a user.interrupt event with `epoch`, written to history.
    this.emit('user.interrupt', expected === undefined ? undefined : { expected_control_epoch: expected }, { epoch });
    this.cancelToolCalls();
    this.cancelChildren({ interrupted: true, control_epoch: epoch });
    if (this.turn) this.turn.exec.cancel();
    else setTimeout(() => this.finishStop(), this.deps.stepMs).unref();
    return epoch;
  }

  /**
   * Every `agent.tool_use` still awaiting a worker's result or a confirmation gets an error result, so a worker
   * reading history sees no call left without a result ("no result yet" means run it, API-NOTES). A reply that
   * arrives later is accepted and changes nothing, like any second reply.
   */
  private cancelToolCalls(): void {
    const content = [{ type: 'text', text: 'The tool call was cancelled by an interrupt.' }];
    for (const { id, threadId } of this.replies.cancelForInterrupt())
      this.emit('agent.tool_result', { event_id: id, tool_result: { content, structured_content: content }, is_error: true }, { threadId });
  }

  private finishStop(): void {
    if (!this.rec.stopping) return;
    this.turn = undefined;
    this.replies.clear();
    const stop_reason: StopReason = { type: 'interrupted' };
    this.set({ stopping: false, interrupted: true, status: 'idle', requires_action: false, stop_reason, continue_pending: false });
    this.setThread(this.coordinator, { status: 'idle', interrupted: true, control_epoch: this.rec.control_epoch });
    this.emit('session.status', { status: 'idle', stop_reason });
    // Cancellation is complete: a self-hosted session releases its row, queued input or not.
    if (this.selfHosted) this.deps.services.work?.releaseRow(this.rec.id);
  }

  /** Continue : a new epoch, `continue_pending` until the start completes with a newer one; queued input is kept. */
  continue(): string {
    const r = this.rec;
    if (r.stopping) conflict('the session is stopping; wait for it to be interrupted');
    if (r.status === 'terminated') conflict('the session is terminated');
    if (!r.interrupted || r.continue_pending) return r.control_epoch;
    const epoch = nextEpoch(r.control_epoch);
    this.set({ continue_pending: true, control_epoch: epoch });
    // After the lease was released, Continue re-queues the session's work.
    if (this.selfHosted) this.deps.services.work?.ensureRow(r.id, r.environment_id!);
    setTimeout(
      () => {
        if (!this.rec.continue_pending) return;
        // The completed start supersedes the epoch Continue returned.
        this.set({ continue_pending: false, interrupted: false, control_epoch: nextEpoch(this.rec.control_epoch) });
        this.setThread(this.coordinator, { interrupted: false, control_epoch: this.rec.control_epoch });
        this.pump();
      },
      Math.max(CONTINUE_START_MS, this.deps.stepMs),
    ).unref();
    return epoch;
  }

  /** Archive : terminated, threads cancelled, queued input dropped. */
  archive(): void {
    const r = this.rec;
    if (r.archived_at) return;
    if (r.stopping) conflict('the session is stopping; wait for it to be idle before archiving');
    if (r.status === 'running') precondition('the session is running; interrupt it and wait for idle before archiving');
    this.turn?.exec.cancel();
    this.turn = undefined;
    this.replies.clear();
    this.queue.length = 0;
    this.cancelChildren({});
    const at = nowIso();
    for (const t of this.deps.threads.values())
      if (t.session_id === r.id && !t.archived_at) this.setThread(t, { status: t.status === 'running' ? 'cancelled' : t.status, archived_at: at });
    this.set({ status: 'terminated', archived_at: at, requires_action: false, continue_pending: false });
    this.emit('session.status', { status: 'terminated' });
    this.deps.services.work?.endRow(r.id);
  }

  /** Archive a child thread : its execution is cancelled; repeating is a no-op. */
  archiveThread(t: ThreadRec): void {
    if (t.parent_thread_id === null) precondition('the coordinator thread cannot be archived; archive the session instead');
    if (t.archived_at) return;
    const exec = this.children.get(t.id)?.exec;
    exec?.cancel();
    this.setThread(t, { status: exec ? 'cancelled' : t.status, archived_at: nowIso() });
    this.emit('session.thread_status', { thread_id: t.id, status: t.status }, { threadId: t.id });
  }

  /** Work stop on a busy session: it is cancelled like an interrupt. */
  cancel(): void {
    if (this.turn || this.queue.length) this.interrupt(undefined);
  }

  close(): void {
    this.turn?.exec.cancel();
    for (const c of this.children.values()) c.exec.cancel();
    this.hub.closeAll();
  }
}
