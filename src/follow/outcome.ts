import { payloadOf, type EventPayloads, type SessionEvent, type StopReason } from '../wire/events';
import { SESSION_ERROR_RECOVERY, UNFINISHED_STOPS } from '../wire/errors';
import { SessionFailedError, SessionInterruptedError, SessionWaitingError } from '../runtime/errors';
import { sessionState, type SessionState, type SessionStateInput, type StateExtras } from '../session/state';
import { shellWord } from '../text/shell-words';

/**
 * How a session stands for `run`, `sessions wait`, `tail --until idle` and the live view: still going, or settled in
 * one of the derived states (src/session/state.ts), which `TurnErrors` turns into the exit code and line of that state.
 */
export type Outcome = { settled: false } | Settled;

export interface Settled {
  settled: true;
  sessionId: string;
  /** The derived state it settled in: idle, failed, terminated, interrupted or waiting. */
  state: SessionState;
  /** The turn stopped on an error, which the turn's own `session.error` explains best. */
  errorStop: boolean;
  /** What the state was read from, to read it again with what another request says (`withPending`). */
  from: SessionLike;
}

/** The fields of a session object (or of a `session.status` event's data) an outcome reads. */
export interface SessionLike extends SessionStateInput {
  id?: string;
  stop_reason?: StopReason | null;
}

/**
 * Reads a session object: settled unless running or rescheduling (or in a status this client does not know). Every
 * state but idle is a failure of its own exit code: nothing unattended answers a confirmation or resumes an interrupt.
 */
export function outcomeOf(s: SessionLike, extras?: StateExtras): Outcome {
  const state = sessionState(s, extras);
  if (state.label === 'running' || state.label === 'rescheduling') return { settled: false };
  // A status the spec does not list is not an end to act on.
  if (state.label === 'unknown') return { settled: false };
  return { settled: true, sessionId: s.id ?? '', state, errorStop: state.label === 'failed' && s.stop_reason?.type === 'error', from: s };
}

/** The same outcome with the count of queued inputs (`GET …/events/pending`): an interrupted session then says whether input is held. */
export const withPending = (end: Settled, pendingInputs: number): Settled => outcomeOf({ ...end.from, id: end.sessionId }, { pendingInputs }) as Settled;

/** The outcome an idle or terminated `session.status` event announces, read as `outcomeOf` reads a session; undefined otherwise. */
export function outcomeOfStatus(sessionId: string, e: SessionEvent): Settled | undefined {
  const d = payloadOf(e, 'session.status');
  if (!d) return undefined;
  const end = outcomeOf({ id: sessionId, status: d.status, stop_reason: d.stop_reason });
  return end.settled ? end : undefined;
}

/** Whether input sent now waits behind an interrupt until a Continue: the session is interrupted, or stopping for one. */
export const holdsInput = (s: SessionStateInput): boolean => s.stopping === true || sessionState(s).label === 'interrupted';

/** An error stop whose `session.error` was not seen. */
const errorStopLine = (sessionId: string): string => `the session turn ended in session.error (session ${sessionId})`;

/** Exit 12's line: the session, whether input waits behind the interrupt, and the command that resumes it. */
export function interruptedLine(sessionId: string, held: boolean): string {
  const resume = `\`svc sessions continue ${shellWord(sessionId)}\``;
  return held
    ? `session ${sessionId} is interrupted and input waits behind the interrupt: ${resume} resumes it and runs the input`
    : `session ${sessionId} is interrupted: its turn stopped before the end; ${resume} resumes it`;
}

/** How many awaited events exit 13's line gives a command for; the others are counted. */
const MAX_ANSWERS_SHOWN = 3;

/** How a reply is given: the verb that answers each kind of awaited event. */
type Answer = 'confirm' | 'tool-result';

/** The awaited events whose kind is known, as `TurnErrors` saw them: a tool use that asks, or a custom tool use. */
function answerOf(e: SessionEvent): Answer | undefined {
  if (e.type === 'agent.custom_tool_use') return 'tool-result';
  if ((e.type === 'agent.tool_use' || e.type === 'agent.mcp_tool_use') && e.data?.permission === 'ask') return 'confirm';
  return undefined;
}

const ANSWER_COMMAND: Record<Answer, (sessionId: string, eventId: string) => string> = {
  confirm: (s, e) => `\`svc sessions confirm ${shellWord(s)} ${shellWord(e)} --allow\` (or --deny)`,
  'tool-result': (s, e) => `\`svc sessions tool-result ${shellWord(s)} ${shellWord(e)} --text "…"\``,
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

  /** True when every awaited event's kind is known, so the line names only the verb that answers it. */
  knows(eventIds: readonly string[]): boolean {
    return eventIds.length > 0 && eventIds.every((id) => this.answers.has(id));
  }

  /** The current turn's last `session.error`, if any. */
  get error(): TurnError | undefined {
    return this.last;
  }

  /**
   * How a settled turn ended, as the error a command ends with: undefined when idle and clean; exit 11 for failed or
   * terminated (naming the turn's `session.error` when seen, which also outweighs an idle or an interrupt after it),
   * 12 for interrupted, 13 for waiting on a human. Each line names the session and the command that moves it on.
   */
  verdict(end: Outcome): Error | undefined {
    if (!end.settled) return undefined;
    const { sessionId: id, state } = end;
    switch (state.label) {
      case 'terminated':
        return new SessionFailedError(`session ${id} was terminated`, undefined, { sessionId: id, terminated: true });
      case 'archived':
        return new SessionFailedError(`session ${id} was archived`, undefined, { sessionId: id, terminated: true, archived: true });
      case 'waiting':
        return new SessionWaitingError(this.awaitingLine(id, state.awaited ?? []), id, state.awaited ?? []);
      case 'failed':
        if (!end.errorStop) return unfinished(id, state.errorType ?? '');
        return this.last ? turnFailed(this.last, id) : new SessionFailedError(errorStopLine(id), undefined, { sessionId: id });
      case 'interrupted':
        return this.last ? turnFailed(this.last, id) : new SessionInterruptedError(interruptedLine(id, state.held === true), id, state.held === true);
      default:
        return this.last && turnFailed(this.last, id);
    }
  }

  /** Ends a settled turn: returns when it ended well, else throws its verdict. */
  finish(end: Outcome): void {
    const failure = this.verdict(end);
    if (failure) throw failure;
  }

  /** Exit 13's line for a turn waiting on replies: the exact command that answers each awaited event. */
  private awaitingLine(sessionId: string, eventIds: readonly string[]): string {
    const get = `svc sessions get ${shellWord(sessionId)}`;
    if (!eventIds.length) return `session ${sessionId} is waiting for a reply (${get} shows stop_reason)`;
    // A few commands, then a count: a turn awaiting thousands of replies still makes one readable line.
    const shown = eventIds.slice(0, MAX_ANSWERS_SHOWN).map((id) => {
      const answer = this.answers.get(id);
      if (answer) return ANSWER_COMMAND[answer](sessionId, id);
      // Not seen on the stream nor in recent history: either verb may answer it.
      return `${ANSWER_COMMAND.confirm(sessionId, id)} for a tool confirmation, or ${ANSWER_COMMAND['tool-result'](sessionId, id)} for a custom tool call`;
    });
    const more = eventIds.length - shown.length;
    const rest = more > 0 ? `; and ${more} more (\`${get} -o json\` lists their event IDs under stop_reason)` : '';
    return `session ${sessionId} is waiting for ${eventIds.length === 1 ? 'a reply' : `${eventIds.length} replies`}: answer with ${shown.join('; ')}${rest}`;
  }
}

/** Exit 11 for a turn that stopped with its work not done (`stop_reason` refusal, …), with the recovery as the hint. */
function unfinished(sessionId: string, stop: string): SessionFailedError {
  const { what, recovery } = Object.hasOwn(UNFINISHED_STOPS, stop) ? UNFINISHED_STOPS[stop] : { what: 'unfinished', recovery: undefined };
  return new SessionFailedError(`the session turn stopped unfinished: ${what} (stop_reason ${stop}, session ${sessionId})`, recovery, {
    sessionId,
    errorType: stop,
  });
}

/** What a turn's `session.error` says: its type and message. */
export interface TurnError {
  type: string;
  message?: string;
}

export function turnErrorOf(e: SessionEvent): TurnError {
  const d: EventPayloads['session.error'] = e.data ?? {};
  return { type: String(d.error_type ?? 'unknown'), message: d.message ? String(d.message) : undefined };
}

/** Exit 11 naming the `session.error` and its session, with the spec's recovery as the hint when the type is known. */
export function turnFailed(last: TurnError, sessionId: string): SessionFailedError {
  const line = `the session turn ended in session.error: ${last.type}${last.message ? `: ${last.message}` : ''} (session ${sessionId})`;
  const hint = Object.hasOwn(SESSION_ERROR_RECOVERY, last.type) ? SESSION_ERROR_RECOVERY[last.type] : undefined;
  return new SessionFailedError(line, hint, { sessionId, errorType: last.type });
}

/** How the live view ended (`run`, `tail --until idle` on a terminal): as without a terminal, by the turn's verdict. */
export function viewEnd(r: { failure?: Error }): void {
  if (r.failure) throw r.failure;
}

/** The text blocks of a message's content joined, as `run` prints the coordinator's last message. */
export function textOfMessage(content: unknown): string {
  const blocks = Array.isArray(content) ? (content as Array<{ type?: string; text?: unknown }>) : [];
  return blocks.map((b) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
}

/**
 * Whether a settled-or-not decision reads events of this type (TurnErrors.see, outcomeOfStatus): statuses and errors,
 * including the service's `session.status_<status>` spelling (docs/service.md "Shapes a real service may answer").
 * Events of any other type are written as received and never parsed.
 */
export const decides = (type: string): boolean => type === 'session.error' || type === 'session.status' || type.startsWith('session.status_');
