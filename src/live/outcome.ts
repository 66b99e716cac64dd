/** When a view opened with `untilIdle` ends by itself: the turn is over (idle, error) or the session terminated. */
import type { SessionEvent } from '../wire/events';

export type EndReason = 'idle' | 'error' | 'terminated';

/** Tracks `session.error` within the turn, so an idle that follows one ends as `error` (R-EVT-20, R-EVT-21). */
export class TurnWatch {
  private failed = false;

  /** The reason the turn ended with this event, if it did. An idle that awaits confirmations is not an end. */
  see(e: SessionEvent): EndReason | undefined {
    const d = (e.data ?? {}) as { status?: string; stop_reason?: { type?: string } };
    if (e.type === 'session.error') this.failed = true;
    if (e.type !== 'session.status') return undefined;
    if (d.status === 'running') this.failed = false;
    if (d.status === 'terminated') return 'terminated';
    if (d.status !== 'idle' || d.stop_reason?.type === 'requires_action') return undefined;
    return this.failed || d.stop_reason?.type === 'error' ? 'error' : 'idle';
  }
}
