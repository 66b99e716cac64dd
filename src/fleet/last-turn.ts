import { turnErrorOf, type TurnError } from '../follow/outcome';
import type { SessionEvent } from '../wire/events';

/** Stops after which the turn's own `session.error` says why it ended (`max_steps` writes one too). */
export const ERROR_STOPS: readonly string[] = ['error', 'max_steps'];

/** One page of recent history is enough to see the last turn's end: its error sits just before its idle status. */
export const RECENT_EVENTS = 100;

const endsTurn = (e: SessionEvent): boolean =>
  e.session_thread_id === undefined && e.type === 'session.status' && (e.data?.status === 'idle' || e.data?.status === 'terminated');

/**
 * The last turn's events, newest first, from recent history given newest first: everything after the previous
 * turn's idle status (the last turn's own closing status is kept).
 */
export function lastTurn(newestFirst: readonly SessionEvent[]): SessionEvent[] {
  const out: SessionEvent[] = [];
  for (const e of newestFirst) {
    if (endsTurn(e) && out.some((x) => !endsTurn(x))) break;
    out.push(e);
  }
  return out;
}

/** The `session.error` the last turn ended in (its newest), from recent history newest first. */
export function lastTurnError(newestFirst: readonly SessionEvent[]): (TurnError & { event: SessionEvent }) | undefined {
  const e = lastTurn(newestFirst).find((x) => x.type === 'session.error');
  return e && { ...turnErrorOf(e), event: e };
}
