import type { DeltaEvent, InputMode } from '../../wire/events';
import { LIMITS } from '../../wire/limits';
import { precondition } from '../errors';
import { newId, nowIso } from '../store';
import { SessionControl } from './control';
import type { MessageEvent, ReplyEvent, UserEvent } from './input';
import { EventLog } from './log';
import type { PendingInput, RuntimeDeps, SessionParts, SessionRec, ThreadRec } from './parts';
import { SessionPlatform } from './platform';
import { PendingReplies } from './replies';
import { StreamHub } from './stream';
import { Turns } from './turn';

export type { PendingInput, RuntimeDeps, SessionRec, ThreadRec } from './parts';

/**
 * A session's live state: history and streams, the input queue, and its three parts: the running turn and its
 * threads (turn.ts), the replies it awaits (replies.ts), and control (control.ts: interrupt, continue, archive).
 */
export class SessionRuntime {
  readonly log: EventLog;
  readonly hub: StreamHub;
  readonly queue: PendingInput[] = [];
  /** MCP connections, tool loading and outbound requests, kept for the session's life (admin paths). */
  readonly platform: SessionPlatform;
  private readonly replies = new PendingReplies();
  private readonly turns: Turns;
  private readonly control: SessionControl;

  constructor(
    readonly rec: SessionRec,
    readonly coordinator: ThreadRec,
    private readonly deps: RuntimeDeps,
    log?: EventLog,
  ) {
    this.log = log ?? new EventLog();
    this.platform = new SessionPlatform(deps.egress);
    this.hub = new StreamHub(this.log, deps.faults, deps.heartbeatMs);
    const parts: SessionParts = {
      rec,
      coordinator,
      deps,
      queue: this.queue,
      replies: this.replies,
      platform: this.platform,
      selfHosted: () => this.selfHosted,
      emit: (type, data, o) => this.emit(type, data, o),
      delta: (threadId, data) => this.delta(threadId, data),
      set: (changes) => deps.sessions.touch(rec, changes),
      setThread: (t, changes) => deps.threads.touch(t, changes),
      pump: () => this.pump(),
    };
    this.turns = new Turns(parts, () => this.control.finishStop());
    this.control = new SessionControl(parts, this.turns);
  }

  get selfHosted(): boolean {
    const env = this.rec.environment_id ? this.deps.services.environments?.get(this.rec.environment_id) : undefined;
    return env?.config.type === 'self_hosted';
  }

  /** An active execution, a wind-down, a pending start or a running child thread (what delete waits for). */
  get active(): boolean {
    return this.turns.running || this.rec.stopping || this.rec.continue_pending || this.turns.threads > 0;
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

  /** Accepts a validated send; interrupt is handled by `interrupt`. */
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
    this.turns.refreshRequiresAction();
    return id;
  }

  /** Starts the next queued input when nothing holds the session back. */
  private pump(): void {
    const r = this.rec;
    if (r.status === 'terminated' || this.turns.running || r.stopping || r.interrupted || r.continue_pending) return;
    const entry = this.queue.shift();
    if (entry) this.turns.start(entry);
  }

  interrupt(expected: string | undefined): string {
    return this.control.interrupt(expected);
  }

  continue(): string {
    return this.control.continue();
  }

  archive(): void {
    this.control.archive();
  }

  archiveThread(t: ThreadRec): void {
    this.control.archiveThread(t);
  }

  /** Work stop on a busy session: it is cancelled like an interrupt. */
  cancel(): void {
    this.control.cancel();
  }

  close(): void {
    this.turns.close();
    this.hub.closeAll();
  }
}
