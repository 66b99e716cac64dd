/** When a view opened with `untilIdle` ends by itself: the turn is over (idle, error, interrupted) or the session terminated. */
import { outcomeOfStatus, textOfMessage, TurnErrors, type Settled, type TurnError } from './outcome';
import type { SessionEvent } from '../wire/events';

export type EndReason = 'idle' | 'error' | 'interrupted' | 'terminated' | 'archived';

/**
 * Tracks `session.error` within the turn, so an idle that follows one ends as `error` and `run`
 * names it as without a terminal, and the coordinator's last message, which `run` prints once the view has closed.
 */
export class TurnWatch {
  constructor(private readonly sessionId = '') {}

  private readonly errors = new TurnErrors();
  private end?: Settled;
  /** The text of the coordinator's last `agent.message` of the turn. */
  message?: string;

  /** The turn's last `session.error`, for `run` to report as it does without a terminal. */
  get error(): TurnError | undefined {
    return this.errors.error;
  }

  /** The reason the turn ended with this event, if it did. An idle that awaits a reply is not an end (the view can answer it). */
  see(e: SessionEvent): EndReason | undefined {
    this.errors.see(e);
    if (e.type === 'agent.message' && e.session_thread_id === undefined) this.message = textOfMessage((e.data ?? {}).content);
    const end = outcomeOfStatus(this.sessionId, e);
    return end && this.settle(end);
  }

  /** A settled outcome, from a status event or a session read: the reason the turn ended, or undefined while it waits on a human. */
  settle(end: Settled): EndReason | undefined {
    if (end.state.label === 'waiting') return undefined;
    this.end = end;
    if (end.state.label === 'terminated' || end.state.label === 'archived') return end.state.label;
    if (this.error || end.errorStop) return 'error';
    return end.state.label === 'interrupted' ? 'interrupted' : 'idle';
  }

  /** How the turn ended as the error its command exits with (11, 12, 13), as without a terminal; undefined when it ended well. */
  failure(): Error | undefined {
    return this.end && this.errors.verdict(this.end);
  }
}
