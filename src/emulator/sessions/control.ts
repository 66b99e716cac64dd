import type { StopReason } from '../../wire/events';
import { conflict, precondition } from '../errors';
import { nowIso } from '../store';
import type { SessionParts, ThreadRec } from './parts';
import type { Turns } from './turn';

/** How long a Continue takes to start: long enough for a client to see `continue_pending`. */
const CONTINUE_START_MS = 100;

const nextEpoch = (e: string): string => (BigInt(e) + 1n).toString();

/** A session's control: interrupt and its wind-down, continue, archive (the session or a child thread), and work stop. */
export class SessionControl {
  constructor(
    private readonly s: SessionParts,
    private readonly turns: Turns,
  ) {}

  /** `user.interrupt`: 202 with the epoch; stopping now, interrupted when the wind-down ends. */
  interrupt(expected: string | undefined): string {
    const r = this.s.rec;
    if (r.status === 'terminated') precondition('the session is terminated and takes no new input');
    if (expected !== undefined && expected !== r.control_epoch) conflict(`expected_control_epoch ${expected} is stale; the session is at ${r.control_epoch}`);
    if (r.interrupted || r.stopping) return r.control_epoch;
    const epoch = nextEpoch(r.control_epoch);
    this.s.set({ stopping: true, control_epoch: epoch });
    // docs/service.md: the interrupt acknowledgement is a user.interrupt event with `epoch`, written to history.
    this.s.emit('user.interrupt', expected === undefined ? undefined : { expected_control_epoch: expected }, { epoch });
    this.cancelToolCalls();
    this.turns.cancelChildren({ interrupted: true, control_epoch: epoch });
    // A running turn calls finishStop when it has wound down; without one, the stop completes after a step.
    if (!this.turns.cancel()) setTimeout(() => this.finishStop(), this.s.deps.stepMs).unref();
    return epoch;
  }

  /**
   * Every `agent.tool_use` still awaiting a worker's result or a confirmation gets an error result, so a worker
   * reading history sees no call left without a result ("no result yet" means run it, docs/service.md). A reply that
   * arrives later is accepted and changes nothing, like any second reply.
   */
  private cancelToolCalls(): void {
    const content = [{ type: 'text', text: 'The tool call was cancelled by an interrupt.' }];
    for (const { id, threadId } of this.s.replies.cancelForInterrupt())
      this.s.emit('agent.tool_result', { event_id: id, tool_result: { content, structured_content: content }, is_error: true }, { threadId });
  }

  /** The wind-down of an interrupt is over: the session is idle and interrupted. */
  finishStop(): void {
    const { s } = this;
    if (!s.rec.stopping) return;
    this.turns.end();
    s.replies.clear();
    const stop_reason: StopReason = { type: 'interrupted' };
    s.set({ stopping: false, interrupted: true, status: 'idle', requires_action: false, stop_reason, continue_pending: false });
    s.setThread(s.coordinator, { status: 'idle', interrupted: true, control_epoch: s.rec.control_epoch });
    s.emit('session.status', { status: 'idle', stop_reason });
    // Cancellation is complete: a self-hosted session releases its row, queued input or not.
    if (s.selfHosted()) s.deps.services.work?.releaseRow(s.rec.id);
  }

  /** Continue: a new epoch, `continue_pending` until the start completes with a newer one; queued input is kept. */
  continue(): string {
    const { s } = this;
    const r = s.rec;
    if (r.stopping) conflict('the session is stopping; wait for it to be interrupted');
    if (r.status === 'terminated') conflict('the session is terminated');
    if (!r.interrupted || r.continue_pending) return r.control_epoch;
    const epoch = nextEpoch(r.control_epoch);
    s.set({ continue_pending: true, control_epoch: epoch });
    // After the lease was released, Continue re-queues the session's work.
    if (s.selfHosted()) s.deps.services.work?.ensureRow(r.id, r.environment_id!);
    setTimeout(
      () => {
        if (!r.continue_pending) return;
        // The completed start supersedes the epoch Continue returned.
        s.set({ continue_pending: false, interrupted: false, control_epoch: nextEpoch(r.control_epoch) });
        s.setThread(s.coordinator, { interrupted: false, control_epoch: r.control_epoch });
        s.pump();
      },
      Math.max(CONTINUE_START_MS, s.deps.stepMs),
    ).unref();
    return epoch;
  }

  /** Archive: terminated, threads cancelled, queued input dropped. */
  archive(): void {
    const { s } = this;
    const r = s.rec;
    if (r.archived_at) return;
    if (r.stopping) conflict('the session is stopping; wait for it to be idle before archiving');
    if (r.status === 'running') precondition('the session is running; interrupt it and wait for idle before archiving');
    this.turns.end();
    s.replies.clear();
    s.queue.length = 0;
    this.turns.cancelChildren({});
    const at = nowIso();
    for (const t of s.deps.threads.values())
      if (t.session_id === r.id && !t.archived_at) s.setThread(t, { status: t.status === 'running' ? 'cancelled' : t.status, archived_at: at });
    s.set({ status: 'terminated', archived_at: at, requires_action: false, continue_pending: false });
    s.emit('session.status', { status: 'terminated' });
    s.deps.services.work?.endRow(r.id);
  }

  /** Archive a child thread: its execution is cancelled; repeating is a no-op. */
  archiveThread(t: ThreadRec): void {
    if (t.parent_thread_id === null) precondition('the coordinator thread cannot be archived; archive the session instead');
    if (t.archived_at) return;
    const wasRunning = this.turns.cancelChild(t.id);
    this.s.setThread(t, { status: wasRunning ? 'cancelled' : t.status, archived_at: nowIso() });
    this.s.emit('session.thread_status', { thread_id: t.id, status: t.status }, { threadId: t.id });
  }

  /** Work stop on a busy session: it is cancelled like an interrupt. */
  cancel(): void {
    if (this.turns.running || this.s.queue.length) this.interrupt(undefined);
  }
}
