import type { Anchor } from '../api/stream/backfill';
import { time } from '../api/stream/dedupe';
import type { SessionEvent } from '../wire/events';
import { canonicalEvent } from '../wire/shapes';
import type { Delivery } from './destination';
import { answeredCall, REQUIRES_ACTION, requiresActionOf, type EventFilter } from './events';
import type { DeliveryQueue, Place } from './queue';
import { deliveryId } from './sign';

/** A complete event as read: parsed, and its JSON text as received (sent on unchanged). */
export interface ReadEvent {
  readonly event: SessionEvent;
  readonly raw: string;
}

/**
 * Turns one session's events, read in order, into deliveries: the chosen ones, and a derived
 * `session.requires_action` right after the event that starts a wait on a human. `read` is where reading stands,
 * the anchor a new reader of the session resumes after.
 *
 * History read to catch up (a session read from its start, or after downtime) is a replay: an ask in it may be
 * answered later in it, so its derived event is held until the replay reaches live (`caughtUp`), and dropped if the
 * answer comes first. No ask is derived twice (a session already waiting is announced, and its ask may be replayed).
 */
export class Intake {
  /** Derived events of the replay, in order, not yet sent: their asks are unanswered so far. */
  private held: SessionEvent[] = [];
  /** The asks whose derived event was queued, until they are answered. */
  private readonly derived = new Set<string>();
  /** Where reading stands while a held event keeps the settled place before its ask. */
  private unsettled?: Place;
  /** Whether reading has taken any event yet. */
  private taken = false;

  constructor(
    readonly sessionId: string,
    public read: Anchor,
    private readonly queue: DeliveryQueue,
    private readonly chosen: EventFilter,
  ) {}

  /** False when `signal` ended a wait for room in the queue: the event is not taken, and reading must stop. */
  async take(it: ReadEvent, signal: AbortSignal, replayed = false): Promise<boolean> {
    const e = it.event;
    this.taken = true;
    const spec = canonicalEvent(e);
    if (this.chosen(spec.type) && !(await this.queue.push(this.delivery(e.id, spec.type, it.raw), signal))) return false;
    const answered = answeredCall(spec);
    if (answered !== undefined) this.answer(answered);
    const derived = this.chosen(REQUIRES_ACTION) ? requiresActionOf(spec) : undefined;
    if (derived && replayed) this.held.push(derived);
    else if (derived && !(await this.derive(derived, signal))) return false;
    const place = { id: e.id, processed_at: e.processed_at };
    // The event and what derives from it are settled together: a restart never sends one without the other. While
    // a derived event is held, the settled place stays before its ask, so a restart reads that ask again.
    if (this.held.length) this.unsettled = place;
    else this.queue.settle(this.sessionId, place);
    this.read = { kind: 'after', id: e.id, at: time(e) };
    return true;
  }

  /** The replay reached live: each ask it left unanswered is waiting now, and derives its event. */
  async caughtUp(signal: AbortSignal): Promise<boolean> {
    for (let d = this.held[0]; d; d = this.held[0]) {
      if (!(await this.derive(d, signal))) return false;
      this.held.shift();
    }
    if (this.unsettled) this.queue.settle(this.sessionId, this.unsettled);
    this.unsettled = undefined;
    return true;
  }

  /**
   * A session already waiting on a human when it is first followed: the derived event of each awaited call
   * (`stop_reason.event_ids`), which was before where reading starts. Not settled: reading starts where it was to.
   */
  async announce(awaited: SessionEvent[], signal: AbortSignal): Promise<boolean> {
    let announced = false;
    for (const e of awaited) {
      const derived = requiresActionOf(canonicalEvent(e));
      if (derived && !(await this.derive(derived, signal))) return false;
      announced ||= derived !== undefined;
    }
    // Recorded like any delivery: once it is settled, the state knows the session, so a restart does not announce it
    // again. Its place is where reading starts (nothing before it is owed); once reading has taken events, theirs is.
    if (announced && !this.taken && this.read.kind === 'after')
      this.queue.settle(this.sessionId, { id: this.read.id, processed_at: new Date(this.read.at).toISOString() });
    return true;
  }

  private async derive(d: SessionEvent, signal: AbortSignal): Promise<boolean> {
    const call = String(d.data?.event_id);
    if (this.derived.has(call)) return true;
    if (!(await this.queue.push(this.delivery(d.id, REQUIRES_ACTION, JSON.stringify(d)), signal))) return false;
    this.derived.add(call);
    return true;
  }

  private answer(call: string): void {
    this.derived.delete(call);
    if (this.held.length) this.held = this.held.filter((d) => d.data?.event_id !== call);
  }

  private delivery(eventId: string, type: string, rawEvent: string): Delivery {
    return {
      id: deliveryId(this.sessionId, eventId),
      sessionId: this.sessionId,
      eventId,
      type,
      body: `{"session_id":${JSON.stringify(this.sessionId)},"event":${rawEvent}}`,
    };
  }
}
