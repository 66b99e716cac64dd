import { DEFAULT_PROMPT, type StopReason } from '../../wire/events';
import { runsOnWorker } from '../../wire/tools';
import { newId } from '../store';
import { Cancelled, Execution, quiet } from './execution';
import { messageText } from './input';
import { childReply, runScript, type ModelContext, type ReplyData, type ReplyKind } from './model';
import { sessionError } from './steps';
import type { PendingInput, SessionParts, ThreadRec } from './parts';

interface Turn {
  exec: Execution;
  /** Steer inputs taken at the coordinator's step boundaries, run after the current script within the same turn. */
  steered: string[];
}

/**
 * The running turn of a session and its child threads: starting a turn from a queued input, steering, the model's
 * context, awaiting replies, delegating to child threads, and how a turn ends (done, failed, or wound down).
 */
export class Turns {
  private turn?: Turn;
  /** Running child threads; an entry stays until its execution has wound down. */
  private readonly children = new Map<string, { exec: Execution; done: Promise<void> }>();

  /** `onWoundDown` runs when a cancelled turn and its threads have all reached a step boundary. */
  constructor(
    private readonly s: SessionParts,
    private readonly onWoundDown: () => void,
  ) {}

  /** A turn is running (or winding down). */
  get running(): boolean {
    return this.turn !== undefined;
  }

  get threads(): number {
    return this.children.size;
  }

  /** Takes the queued input as the coordinator's new turn. */
  start(entry: PendingInput): void {
    const turn: Turn = { exec: new Execution(), steered: [] };
    this.turn = turn;
    const text = this.consume(entry);
    this.s.set({ status: 'running', stop_reason: null });
    this.s.setThread(this.s.coordinator, { status: 'running' });
    this.s.emit('session.status', { status: 'running' });
    void this.run(turn, text);
  }

  /** Cancels the running turn (it winds down at its next step boundary); false when none runs. */
  cancel(): boolean {
    this.turn?.exec.cancel();
    return this.turn !== undefined;
  }

  /** Forgets the turn: its wind-down is over, or the session ends with it (cancelled first). */
  end(): void {
    this.turn?.exec.cancel();
    this.turn = undefined;
  }

  /** Cancels every running child thread, marking each cancelled with `changes`. */
  cancelChildren(changes: Partial<ThreadRec>): void {
    for (const [id, { exec }] of this.children) {
      if (exec.cancelled) continue;
      exec.cancel();
      const t = this.s.deps.threads.get(id);
      if (t) {
        this.s.setThread(t, { status: 'cancelled', ...changes });
        this.s.emit('session.thread_status', { thread_id: id, status: 'cancelled' }, { threadId: id });
      }
    }
  }

  /** Cancels one child thread; false when it was not running. */
  cancelChild(id: string): boolean {
    const exec = this.children.get(id)?.exec;
    exec?.cancel();
    return exec !== undefined;
  }

  /** Cancels everything at once (the emulator closes). */
  close(): void {
    this.turn?.exec.cancel();
    for (const c of this.children.values()) c.exec.cancel();
  }

  /**
   * `requires_action` and `stop_reason.event_ids` list the confirmations and custom results still awaited; while the
   * coordinator waits on them the session is idle with stop reason requires_action.
   */
  refreshRequiresAction(): void {
    if (!this.turn) return;
    const { rec } = this.s;
    const awaited = this.s.replies.awaitingUser();
    if (awaited.length) {
      const stop_reason: StopReason = { type: 'requires_action', event_ids: awaited.map((w) => w.id) };
      const coordinatorWaits = awaited.some((w) => w.threadId === undefined);
      const becameIdle = coordinatorWaits && rec.status !== 'idle';
      this.s.set({ requires_action: true, stop_reason, status: coordinatorWaits ? 'idle' : rec.status });
      if (becameIdle) this.s.emit('session.status', { status: 'idle', stop_reason });
    } else if (rec.requires_action) {
      const resumed = rec.status === 'idle';
      this.s.set({ requires_action: false, stop_reason: null, status: 'running' });
      if (resumed) this.s.emit('session.status', { status: 'running' });
    }
  }

  private consume(entry: PendingInput): string {
    // The queued input's event_id becomes the id of its (first) message.
    entry.events.forEach((e, i) => this.s.emit('user.message', e.data, { id: i === 0 ? entry.event_id : undefined }));
    return entry.events.map(messageText).filter(Boolean).join('\n') || DEFAULT_PROMPT;
  }

  private async run(turn: Turn, text: string): Promise<void> {
    const ctx = this.context(turn.exec, undefined);
    let outcome: StopReason;
    try {
      const outage = this.s.deps.faults.config.model_outage;
      if (outage) this.s.deps.faults.count('outage_errors');
      outcome = outage ? await sessionError(ctx, outage, `the model engine is unavailable (${outage}): an outage of the emulator`) : await runScript(ctx, text);
      // Steered input joins the running turn.
      for (let s = turn.steered.shift(); s !== undefined; s = turn.steered.shift()) outcome = await runScript(ctx, s);
    } catch (e) {
      if (!(e instanceof Cancelled)) return this.fail(turn, e);
      // The wind-down ends when every child thread has reached its step boundary too.
      await Promise.all([...this.children.values()].map((c) => c.done));
      if (this.turn !== turn) return;
      // An interrupt's wind-down completes the stop; a runtime closing (the emulator, a deleted session) only ends the turn.
      if (this.s.rec.stopping) this.onWoundDown();
      else this.turn = undefined;
      return;
    }
    if (this.turn !== turn) return;
    this.finish(outcome);
  }

  /** A fault of the emulator itself ends the turn as a failed execution rather than the process. */
  private fail(turn: Turn, e: unknown): void {
    if (this.turn !== turn) return;
    this.s.emit('session.error', { error_type: 'internal_error', message: `the emulator failed: ${(e as Error)?.message ?? String(e)}` });
    this.finish({ type: 'error' });
  }

  private finish(stop_reason: StopReason): void {
    this.turn = undefined;
    this.s.set({ status: 'idle', stop_reason, requires_action: false });
    this.s.setThread(this.s.coordinator, { status: 'idle' });
    this.s.emit('session.status', { status: 'idle', stop_reason });
    this.s.pump();
  }

  /** Steer entries are taken at the coordinator's step boundaries. */
  private takeSteers(): void {
    const turn = this.turn;
    if (!turn) return;
    const { queue } = this.s;
    for (let i = 0; i < queue.length;) {
      if (queue[i].type !== 'steer') {
        i++;
        continue;
      }
      turn.steered.push(this.consume(queue.splice(i, 1)[0]));
    }
  }

  private context(exec: Execution, threadId: string | undefined): ModelContext {
    const { s } = this;
    return {
      model: s.deps.model,
      selfHosted: s.selfHosted(),
      canDelegate: s.deps.roster.length > 0,
      mcpServers: s.deps.mcpServers,
      tools: s.deps.tools ?? [],
      platform: s.platform,
      step: async (ms = s.deps.stepMs) => {
        await exec.step(ms);
        if (threadId === undefined) this.takeSteers();
      },
      emit: (type, data, id) => {
        const emitted = s.emit(type, data, { threadId, id });
        if (type === 'agent.tool_use' && s.selfHosted() && runsOnWorker(data ?? {})) s.replies.workerCall(emitted, threadId, data?.permission === 'allow');
        return emitted;
      },
      delta: (data) => s.delta(threadId, data),
      newEventId: () => newId('sevt'),
      // The model may start waiting before a step and await after it: a step that throws first leaves the wait unawaited.
      awaitReplies: (calls) => quiet(this.awaitReplies(exec, threadId, calls)),
      requestWorker: () => s.deps.services.work?.ensureRow(s.rec.id, s.rec.environment_id!),
      delegate: (n, ms, work) => this.delegate(exec, n, ms, work),
      deliverArtifact: (name) => s.deps.services.artifacts?.deliver(s.rec.id, name, Buffer.from(`artifact ${name} of session ${s.rec.id}\n`), 'text/plain'),
    };
  }

  private async awaitReplies(exec: Execution, threadId: string | undefined, calls: Array<{ id: string; kind: ReplyKind }>): Promise<Map<string, ReplyData>> {
    const results = this.s.replies.await(calls, threadId);
    this.refreshRequiresAction();
    try {
      return new Map(await exec.wait(Promise.all(results)));
    } finally {
      this.s.replies.release(calls.map((c) => c.id));
    }
  }

  private async delegate(exec: Execution, n: number, stepMs?: number, work?: string): Promise<void> {
    const { s } = this;
    const runs: Promise<void>[] = [];
    for (let i = 1; i <= n; i++) {
      const agent_name = `worker-${i}`;
      const t = s.deps.threads.insert({
        session_id: s.rec.id,
        parent_thread_id: s.coordinator.id,
        agent_name,
        status: 'running',
        interrupted: false,
        control_epoch: s.rec.control_epoch,
        archived_at: null,
      } as unknown as ThreadRec);
      s.emit('session.thread_created', { thread_id: t.id, parent_thread_id: s.coordinator.id, agent_name }, { threadId: t.id });
      s.emit('session.thread_status', { thread_id: t.id, status: 'running' }, { threadId: t.id });
      const child = new Execution();
      const done = this.runChild(t, child, i, stepMs, work);
      this.children.set(t.id, { exec: child, done });
      runs.push(done);
    }
    await exec.wait(Promise.all(runs));
  }

  private async runChild(t: ThreadRec, exec: Execution, index: number, stepMs?: number, work?: string): Promise<void> {
    const { s } = this;
    try {
      await childReply(this.context(exec, t.id), index, stepMs, work);
      s.setThread(t, { status: 'idle' });
      s.emit('session.thread_status', { thread_id: t.id, status: 'idle' }, { threadId: t.id });
    } catch (e) {
      // A child's own fault ends that thread, never the process (its promise is awaited by the wind-down).
      if (!(e instanceof Cancelled)) {
        s.emit('session.error', { error_type: 'internal_error', message: `the emulator failed: ${(e as Error)?.message ?? String(e)}` }, { threadId: t.id });
        s.setThread(t, { status: 'idle' });
        s.emit('session.thread_status', { thread_id: t.id, status: 'idle' }, { threadId: t.id });
      }
    } finally {
      this.children.delete(t.id);
    }
  }
}
