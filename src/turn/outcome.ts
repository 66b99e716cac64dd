import type { SessionEvent, StopReason } from '../wire/events';
import { SESSION_ERROR_RECOVERY } from '../wire/errors';
import { SessionFailedError } from '../errors';

/**
 * How a session stands for `run`, `sessions wait` and `tail --until idle`: still going, or settled (with a failure).
 * `errorStop` marks a turn that stopped on an error, which the turn's own `session.error` explains best.
 */
export type Outcome = { settled: false } | { settled: true; failure?: string; errorStop?: boolean };

interface SessionLike {
  id?: string;
  status?: unknown;
  archived_at?: unknown;
  stop_reason?: StopReason | null;
}

/** Reads a session object: idle or terminated is settled; an error stop or an awaited reply is a failure (exit 11). */
export function outcomeOf(s: SessionLike): Outcome {
  if (s.status === 'terminated') return { settled: true, failure: `session ${s.id} was terminated` };
  if (s.status !== 'idle') return { settled: false };
  return { settled: true, failure: stopFailure(s.id ?? '', s.stop_reason ?? undefined), errorStop: s.stop_reason?.type === 'error' };
}

/** The outcome an idle or terminated `session.status` event announces, read as `outcomeOf` reads a session; undefined otherwise. */
export function outcomeOfStatus(sessionId: string, e: SessionEvent): Outcome | undefined {
  if (e.type !== 'session.status') return undefined;
  const end = outcomeOf({ id: sessionId, status: e.data?.status, stop_reason: e.data?.stop_reason as StopReason | undefined });
  return end.settled ? end : undefined;
}

/**
 * A turn that stopped on an error fails. One that stopped waiting for a tool confirmation or a custom tool
 * result fails too: nothing unattended will answer it, so the caller is told which events await a reply.
 */
function stopFailure(sessionId: string, stop: StopReason | undefined): string | undefined {
  if (stop?.type === 'error') return errorStopLine(sessionId);
  if (stop?.type === 'requires_action') {
    const ids = stop.event_ids?.length ? stop.event_ids.join(', ') : 'unknown events';
    return `session ${sessionId} is waiting for a reply to ${ids}: answer with \`svc sessions confirm ${sessionId} EVENT_ID --allow|--deny\` or \`svc sessions tool-result ${sessionId} EVENT_ID --text T\``;
  }
  return undefined;
}

/** An error stop whose `session.error` was not seen. */
const errorStopLine = (sessionId: string): string => `the session turn ended in session.error (session ${sessionId})`;

/**
 * Tracks `session.error` within the current turn (a running status starts a new turn). Its `data.error_type` is
 * the session's own vocabulary, not an HTTP error type (R-EVT-22): an unknown one is reported as it comes (R-ERR-23),
 * a known one with the spec's recovery as the hint (R-ERR-24).
 */
export class TurnErrors {
  private last?: TurnError;

  see(e: SessionEvent): void {
    if (e.type === 'session.status' && e.data?.status === 'running') this.last = undefined;
    if (e.type === 'session.error') this.last = turnErrorOf(e);
  }

  /** The current turn's last `session.error`, if any. */
  get error(): TurnError | undefined {
    return this.last;
  }

  get failure(): string | undefined {
    return this.last && turnFailed(this.last).message;
  }

  /** Ends a settled turn: exit 0, or exit 11 naming the turn's `session.error` when there was one. */
  finish(end: Outcome): void {
    const failure = end.settled ? end.failure : undefined;
    if (this.last && (end.settled && end.errorStop || !failure)) throw turnFailed(this.last);
    finish(failure);
  }
}

/** What a turn's `session.error` says: its type and message. */
export interface TurnError {
  type: string;
  message?: string;
}

export function turnErrorOf(e: SessionEvent): TurnError {
  const d = e.data ?? {};
  return { type: String(d.error_type ?? 'unknown'), message: d.message ? String(d.message) : undefined };
}

/** Exit 11 naming the `session.error`, with the spec's recovery as the hint when the type is known. */
export function turnFailed(last: TurnError): SessionFailedError {
  const line = `the session turn ended in session.error: ${last.type}${last.message ? `: ${last.message}` : ''}`;
  return new SessionFailedError(line, Object.hasOwn(SESSION_ERROR_RECOVERY, last.type) ? SESSION_ERROR_RECOVERY[last.type] : undefined);
}

/**
 * How the live view ended (`run`, `tail --until idle` on a terminal), as without a terminal: exit 0, or exit 11
 * naming the turn's `session.error` when the view saw one.
 */
export function viewEnd(sessionId: string, r: { reason: string; sessionError?: TurnError }): void {
  if (r.reason === 'error') throw r.sessionError ? turnFailed(r.sessionError) : new SessionFailedError(errorStopLine(sessionId));
  if (r.reason === 'terminated') finish(`session ${sessionId} was terminated`);
}

/** Ends a command per its outcome: exit 0, or exit 11 with one line. */
export function finish(failure: string | undefined): void {
  if (failure) throw new SessionFailedError(failure);
}

/** The text blocks of a message's content joined, as `run` prints the coordinator's last message. */
export function textOfMessage(content: unknown): string {
  const blocks = Array.isArray(content) ? (content as Array<{ type?: string; text?: unknown }>) : [];
  return blocks.map((b) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
}
