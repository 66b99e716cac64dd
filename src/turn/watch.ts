/** When a view opened with `untilIdle` ends by itself: the turn is over (idle, error) or the session terminated. */
import { outcomeOfStatus, textOfMessage, TurnErrors, type TurnError } from './outcome';
import type { SessionEvent } from '../wire/events';

export type EndReason = 'idle' | 'error' | 'terminated';

/**
 * Tracks `session.error` within the turn, so an idle that follows one ends as `error` and `run`
 * names it as without a terminal, and the coordinator's last message, which `run` prints once the view has closed.
 */
export class TurnWatch {
  constructor(private readonly sessionId = '') {}

  private readonly errors = new TurnErrors();
  /** The text of the coordinator's last `agent.message` of the turn. */
  message?: string;
  /** An idle turn that stopped unfinished (`retries_exhausted`, `budget_reached`, `refusal`): exit 11's line and hint. */
  unfinished?: { failure: string; hint?: string };

  /** The turn's last `session.error`, for `run` to report as it does without a terminal. */
  get error(): TurnError | undefined {
    return this.errors.error;
  }

  /** The reason the turn ended with this event, if it did. An idle that awaits confirmations is not an end. */
  see(e: SessionEvent): EndReason | undefined {
    this.errors.see(e);
    const d = (e.data ?? {}) as { status?: string; stop_reason?: { type?: string }; content?: unknown };
    if (e.type === 'agent.message' && e.session_thread_id === undefined) this.message = textOfMessage(d.content);
    if (e.type !== 'session.status') return undefined;
    if (d.status === 'terminated') return 'terminated';
    if (d.status !== 'idle' || d.stop_reason?.type === 'requires_action') return undefined;
    if (this.error || d.stop_reason?.type === 'error') return 'error';
    const end = outcomeOfStatus(this.sessionId, e);
    this.unfinished = end?.settled && end.failure ? { failure: end.failure, hint: end.hint } : undefined;
    return 'idle';
  }
}
