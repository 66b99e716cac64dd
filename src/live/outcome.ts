/** When a view opened with `untilIdle` ends by itself: the turn is over (idle, error) or the session terminated. */
import { turnErrorOf, type TurnError } from '../commands/run/outcome';
import type { SessionEvent } from '../wire/events';

export type EndReason = 'idle' | 'error' | 'terminated';

/**
 * Tracks `session.error` within the turn, so an idle that follows one ends as `error` (R-EVT-20, R-EVT-21) and `run`
 * names it as without a terminal, and the coordinator's last message, which `run` prints once the view has closed.
 */
export class TurnWatch {
  /** The turn's last `session.error`, for `run` to report as it does without a terminal. */
  error?: TurnError;
  /** The text of the coordinator's last `agent.message` of the turn. */
  message?: string;

  /** The reason the turn ended with this event, if it did. An idle that awaits confirmations is not an end. */
  see(e: SessionEvent): EndReason | undefined {
    const d = (e.data ?? {}) as { status?: string; stop_reason?: { type?: string }; content?: unknown };
    if (e.type === 'session.error') this.error = turnErrorOf(e);
    if (e.type === 'agent.message' && e.session_thread_id === undefined) this.message = textOf(d.content);
    if (e.type !== 'session.status') return undefined;
    if (d.status === 'running') this.error = undefined;
    if (d.status === 'terminated') return 'terminated';
    if (d.status !== 'idle' || d.stop_reason?.type === 'requires_action') return undefined;
    return this.error || d.stop_reason?.type === 'error' ? 'error' : 'idle';
  }
}

/** The text blocks of a message, joined as `run` prints them without a terminal. */
function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? (content as Array<{ type?: string; text?: unknown }>) : [];
  return blocks.map((b) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
}
