import type { Anchor } from '../api/stream/backfill';
import { time } from '../api/stream/dedupe';
import type { SessionEvent } from '../wire/events';
import { canonicalEvent } from '../wire/shapes';
import type { Delivery } from './destination';
import { REQUIRES_ACTION, requiresActionOf, type EventFilter } from './events';
import type { DeliveryQueue } from './queue';
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
 */
export class Intake {
  constructor(
    readonly sessionId: string,
    public read: Anchor,
    private readonly queue: DeliveryQueue,
    private readonly chosen: EventFilter,
  ) {}

  /** False when `signal` ended a wait for room in the queue: the event is not taken, and reading must stop. */
  async take(it: ReadEvent, signal: AbortSignal): Promise<boolean> {
    const e = it.event;
    const spec = canonicalEvent(e);
    if (this.chosen(spec.type) && !(await this.queue.push(this.delivery(e.id, spec.type, it.raw), signal))) return false;
    const derived = this.chosen(REQUIRES_ACTION) ? requiresActionOf(spec) : undefined;
    if (derived && !(await this.queue.push(this.delivery(derived.id, REQUIRES_ACTION, JSON.stringify(derived)), signal))) return false;
    // The event and what derives from it are settled together: a restart never sends one without the other.
    this.queue.settle(this.sessionId, { id: e.id, processed_at: e.processed_at });
    this.read = { kind: 'after', id: e.id, at: time(e) };
    return true;
  }

  /**
   * A session already waiting on a human when it is first followed: the derived event of each awaited call
   * (`stop_reason.event_ids`), which was before where reading starts. Not settled: reading starts where it was to.
   */
  async announce(awaited: SessionEvent[], signal: AbortSignal): Promise<boolean> {
    for (const e of awaited) {
      const derived = requiresActionOf(canonicalEvent(e));
      if (derived && !(await this.queue.push(this.delivery(derived.id, REQUIRES_ACTION, JSON.stringify(derived)), signal))) return false;
    }
    return true;
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
