/**
 * One derived state of a session, computed here and nowhere else: the word every human view shows (tables, `-w`
 * rows, pickers, `wait`, `svc top`, the live view's header, exports, completion) and the exit code a command that
 * waited on the session ends with. Machine formats (JSON, YAML, NDJSON) keep the service's object untouched.
 */
import { SESSION_STATUSES } from '../wire/events';
import { UNFINISHED_STOPS } from '../wire/errors';
import type { Session } from '../wire/resources';

/** The labels, in the order a view sorts them (most in need of a person first after running ones). */
/** `unknown`: a status the spec does not list, shown as the service sends it (a newer service's word), never as idle. */
/** `archived`: the one word for an archived session in every view (its status reads `terminated`; docs/decisions/words.md). */
export const STATE_LABELS = ['running', 'rescheduling', 'waiting', 'interrupted', 'failed', 'terminated', 'archived', 'idle', 'unknown'] as const;
export type StateLabel = (typeof STATE_LABELS)[number];

/** What `--status` accepts: the service's statuses and the derived states that no status names. */
export const DERIVED_FILTERS = ['failed', 'interrupted', 'waiting'] as const;
export const STATUS_FILTER_VALUES: readonly string[] = [...SESSION_STATUSES, ...DERIVED_FILTERS];

/** The exit code of a command that waited on a session which ended so (docs/behaviour.md "Errors and exit codes"). */
export const STATE_EXIT: Record<StateLabel, number> = {
  idle: 0,
  unknown: 0,
  running: 0,
  rescheduling: 0,
  failed: 11,
  terminated: 11,
  archived: 11,
  interrupted: 12,
  waiting: 13,
};

/** Which of several outcomes a command reports when it waited on many: the worst, by this order (first is worst). */
export const EXIT_SEVERITY: readonly number[] = [11, 13, 12, 124, 0];

export interface SessionState {
  label: StateLabel;
  /** A few words that qualify the label: the error type, `input held`, `2 confirmations`, `stopping`… */
  detail?: string;
  /** `failed`: the error type when the history or the object carries it (`stop_reason.type` for an unfinished stop). */
  errorType?: string;
  /** `interrupted`: input waits behind the interrupt until a Continue. */
  held?: boolean;
  /** `waiting`: the awaited event IDs (`stop_reason.event_ids`). */
  awaited?: string[];
}

/** The members of a session object (or a slim row of one) that the state reads. */
export type SessionStateInput = Pick<Session, 'status' | 'stop_reason' | 'interrupted' | 'stopping' | 'continue_pending' | 'requires_action'> & {
  archived_at?: unknown;
};

/** What only the history or another read can say. */
export interface StateExtras {
  /** The `error_type` of the turn's `session.error`, where a view saw it. */
  errorType?: string;
  /** How many inputs are queued (`GET …/events/pending`), where the caller read them. */
  pendingInputs?: number;
  /** What answers the awaited events, where the history showed their kind. */
  waitingOn?: 'confirmation' | 'tool result';
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The derived state of a session object. */
export function sessionState(s: SessionStateInput, extras: StateExtras = {}): SessionState {
  const status = str(s.status) ?? 'unknown';
  const stop = str(s.stop_reason?.type);
  if (typeof s.archived_at === 'string' && s.archived_at !== '') return { label: 'archived' };
  if (status === 'terminated') return { label: 'terminated' };
  if (s.interrupted === true && s.continue_pending !== true && status !== 'running' && status !== 'rescheduling') {
    const held = (extras.pendingInputs ?? 0) > 0;
    return { label: 'interrupted', held, detail: held ? 'input held' : s.stopping === true ? 'stopping' : undefined };
  }
  if (status === 'running') {
    const detail = s.stopping === true ? 'stopping' : s.continue_pending === true ? 'continue pending' : undefined;
    return { label: 'running', detail };
  }
  if (status === 'rescheduling') return { label: 'rescheduling' };
  if (status !== 'idle') return { label: 'unknown', detail: status };
  if (s.continue_pending === true) return { label: 'running', detail: 'continue pending' };
  if (stop === 'error') return { label: 'failed', errorType: extras.errorType, detail: extras.errorType };
  if (stop && Object.hasOwn(UNFINISHED_STOPS, stop)) return { label: 'failed', errorType: stop, detail: stop };
  if (stop === 'requires_action' || s.requires_action === true) {
    const ids = Array.isArray(s.stop_reason?.event_ids) ? s.stop_reason.event_ids.filter((x): x is string => typeof x === 'string') : [];
    const what = extras.waitingOn ?? 'reply';
    const detail = ids.length > 1 ? `${ids.length} ${what === 'reply' ? 'replies' : `${what}s`}` : what;
    return { label: 'waiting', awaited: ids, detail };
  }
  // A Continue clears `interrupted` but leaves the last stop: only a service without the flag is read by its stop.
  if (stop === 'interrupted' && typeof s.interrupted !== 'boolean') return { label: 'interrupted' };
  return { label: 'idle' };
}

/** The state as one cell of text: `failed (model_error)`, `interrupted (input held)`, `idle`. */
export function stateText(st: SessionState): string {
  if (st.label === 'unknown') return st.detail ?? 'unknown';
  return st.detail ? `${st.label} (${st.detail})` : st.label;
}

/** Shorthand for views that show one cell: the derived state of an object as text. */
export const sessionStateText = (s: SessionStateInput, extras?: StateExtras): string => stateText(sessionState(s, extras));

/** Whether a session matches one `--status` value: a service status, or a derived state. */
export function matchesStatus(s: SessionStateInput, value: string): boolean {
  if ((DERIVED_FILTERS as readonly string[]).includes(value)) return sessionState(s).label === value;
  return s.status === value;
}

/** What `threads archive --status` accepts: a thread's statuses (a session's, and `cancelled` once its session ends) and `interrupted`. */
export const THREAD_FILTER_VALUES: readonly string[] = [...SESSION_STATUSES, 'cancelled', 'interrupted'];

/** A thread as one cell: a session's status reads as a session's state (`interrupted`), another as the service names it. */
export function threadStateText(t: SessionStateInput): string {
  if ((SESSION_STATUSES as readonly unknown[]).includes(t.status)) return sessionStateText(t);
  const status = str(t.status) ?? 'unknown';
  return t.interrupted === true ? `${status} (interrupted)` : status;
}

/** Whether a thread matches one `threads archive --status` value; `cancelled` also takes a real service's `canceled`. */
export function matchesThreadStatus(t: SessionStateInput, value: string): boolean {
  return value === 'cancelled' ? t.status === 'cancelled' || t.status === 'canceled' : matchesStatus(t, value);
}

/** The worst of several exit codes by `EXIT_SEVERITY` (unknown codes rank after the known non-zero ones). */
export function worstExit(codes: Iterable<number>): number {
  let worst = 0;
  const rank = (c: number) => {
    const i = EXIT_SEVERITY.indexOf(c);
    return i < 0 ? EXIT_SEVERITY.length - 1.5 : i;
  };
  for (const c of codes) if (c !== 0 && (worst === 0 || rank(c) < rank(worst))) worst = c;
  return worst;
}
