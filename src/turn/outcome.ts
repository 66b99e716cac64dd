import type { SessionEvent, StopReason } from '../wire/events';
import { SESSION_ERROR_RECOVERY, UNFINISHED_STOPS } from '../wire/errors';
import { SessionFailedError } from '../errors';

/**
 * How a session stands for `run`, `sessions wait` and `tail --until idle`: still going, or settled (with a failure).
 * `errorStop` marks a turn that stopped on an error, which the turn's own `session.error` explains best; `awaiting`
 * one that waits for replies, which `TurnErrors` words with the command that answers each.
 */
export type Outcome = { settled: false } | { settled: true; failure?: string; hint?: string; errorStop?: boolean; awaiting?: Awaiting };

/** The events a session waits on (`stop_reason.event_ids` of `requires_action`). */
export interface Awaiting {
  sessionId: string;
  eventIds: string[];
}

interface SessionLike {
  id?: string;
  status?: unknown;
  archived_at?: unknown;
  stop_reason?: StopReason | null;
}

/**
 * Reads a session object: idle or terminated is settled. An error stop, an unfinished stop or an awaited reply is a
 * failure (exit 11): nothing unattended will answer a tool confirmation or a custom tool call.
 */
export function outcomeOf(s: SessionLike): Outcome {
  const id = s.id ?? '';
  if (s.status === 'terminated') return { settled: true, failure: `session ${id} was terminated` };
  if (s.status !== 'idle') return { settled: false };
  const stop = s.stop_reason ?? undefined;
  if (stop?.type === 'error') return { settled: true, failure: errorStopLine(id), errorStop: true };
  if (stop?.type === 'requires_action') return { settled: true, awaiting: { sessionId: id, eventIds: stop.event_ids ?? [] } };
  if (stop && Object.hasOwn(UNFINISHED_STOPS, stop.type)) {
    const { what, recovery } = UNFINISHED_STOPS[stop.type];
    return { settled: true, failure: `the session turn stopped unfinished: ${what} (stop_reason ${stop.type}, session ${id})`, hint: recovery };
  }
  return { settled: true };
}

/** The outcome an idle or terminated `session.status` event announces, read as `outcomeOf` reads a session; undefined otherwise. */
export function outcomeOfStatus(sessionId: string, e: SessionEvent): Outcome | undefined {
  if (e.type !== 'session.status') return undefined;
  const end = outcomeOf({ id: sessionId, status: e.data?.status, stop_reason: e.data?.stop_reason as StopReason | undefined });
  return end.settled ? end : undefined;
}

/** An error stop whose `session.error` was not seen. */
const errorStopLine = (sessionId: string): string => `the session turn ended in session.error (session ${sessionId})`;

/** How a reply is given: the verb that answers each kind of awaited event. */
type Answer = 'confirm' | 'tool-result';

/** The awaited events whose kind is known, as `TurnErrors` saw them: a tool use that asks, or a custom tool use. */
function answerOf(e: SessionEvent): Answer | undefined {
  if (e.type === 'agent.custom_tool_use') return 'tool-result';
  if ((e.type === 'agent.tool_use' || e.type === 'agent.mcp_tool_use') && e.data?.permission === 'ask') return 'confirm';
  return undefined;
}

const ANSWER_COMMAND: Record<Answer, (sessionId: string, eventId: string) => string> = {
  confirm: (s, e) => `\`svc sessions confirm ${s} ${e} --allow\` (or --deny)`,
  'tool-result': (s, e) => `\`svc sessions tool-result ${s} ${e} --text "…"\``,
};

/**
 * Tracks `session.error` within the current turn (a running status starts a new turn). Its `data.error_type` is
 * the session's own vocabulary, not an HTTP error type: an unknown one is reported as it comes,
 * a known one with the spec's recovery as the hint.
 */
export class TurnErrors {
  private last?: TurnError;
  /** What answers each tool use seen that may be awaited, by event ID. */
  private readonly answers = new Map<string, Answer>();

  see(e: SessionEvent): void {
    if (e.type === 'session.status' && e.data?.status === 'running') this.last = undefined;
    if (e.type === 'session.error') this.last = turnErrorOf(e);
    const answer = answerOf(e);
    if (answer) this.answers.set(e.id, answer);
  }

  /** True when every awaited event's kind is known, so the failure names only the verb that answers it. */
  knows(a: Awaiting): boolean {
    return a.eventIds.length > 0 && a.eventIds.every((id) => this.answers.has(id));
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
    if (!end.settled) return;
    const failure = end.failure ?? (end.awaiting && this.awaitingLine(end.awaiting));
    if (this.last && (end.errorStop || !failure)) throw turnFailed(this.last);
    finish(failure, end.hint);
  }

  /** Exit 11's line for a turn waiting on replies: the exact command that answers each awaited event. */
  private awaitingLine({ sessionId, eventIds }: Awaiting): string {
    if (!eventIds.length) return `session ${sessionId} is waiting for a reply (svc sessions get ${sessionId} shows stop_reason)`;
    const answers = eventIds.map((id) => {
      const answer = this.answers.get(id);
      if (answer) return ANSWER_COMMAND[answer](sessionId, id);
      // Not seen on the stream nor in recent history: either verb may answer it.
      return `${ANSWER_COMMAND.confirm(sessionId, id)} for a tool confirmation, or ${ANSWER_COMMAND['tool-result'](sessionId, id)} for a custom tool call`;
    });
    return `session ${sessionId} is waiting for ${eventIds.length === 1 ? 'a reply' : `${eventIds.length} replies`}: answer with ${answers.join('; ')}`;
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
export function viewEnd(sessionId: string, r: { reason: string; sessionError?: TurnError; unfinished?: { failure: string; hint?: string } }): void {
  if (r.unfinished) finish(r.unfinished.failure, r.unfinished.hint);
  if (r.reason === 'error') throw r.sessionError ? turnFailed(r.sessionError) : new SessionFailedError(errorStopLine(sessionId));
  if (r.reason === 'terminated') finish(`session ${sessionId} was terminated`);
}

/** Ends a command per its outcome: exit 0, or exit 11 with one line (and its recovery as the hint). */
export function finish(failure: string | undefined, hint?: string): void {
  if (failure) throw new SessionFailedError(failure, hint);
}

/** The text blocks of a message's content joined, as `run` prints the coordinator's last message. */
export function textOfMessage(content: unknown): string {
  const blocks = Array.isArray(content) ? (content as Array<{ type?: string; text?: unknown }>) : [];
  return blocks.map((b) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
}

/**
 * Whether a settled-or-not decision reads events of this type (TurnErrors.see, outcomeOfStatus): statuses and errors,
 * including the service's `session.status_<status>` spelling (API-NOTES "Shapes a real service may answer").
 * Events of any other type are written as received and never parsed.
 */
export const decides = (type: string): boolean => type === 'session.error' || type === 'session.status' || type.startsWith('session.status_');
