import type { ApiClient } from '../api/client';
import { tolerated } from '../api/errors';
import { sessions } from '../api/sessions';
import { withPending, type Outcome, type TurnErrors } from './outcome';

/** One page, newest first: a turn's `session.error` sits just before its idle status. */
const RECENT_EVENTS = 50;

/**
 * Ends a command that waited on a session, by the state it settled in (TurnErrors.verdict): returns when idle and
 * clean, else throws exit 11, 12 or 13. Before that it reads what the session read alone cannot say:
 * - the turn's `session.error` (the read can show an error stop before the stream delivered it, or with no stream at
 *   all) and the kind of each awaited event, from one page of history fed oldest first, so a running status of a
 *   later turn resets the error as on the stream;
 * - for an interrupted session, whether input is held behind the interrupt (`GET …/events/pending`).
 * Either read failing leaves the line more generic, never the exit code otherwise.
 */
export async function finishTurn(client: ApiClient, errors: TurnErrors, end: Outcome): Promise<void> {
  if (!end.settled) return;
  const { sessionId, state } = end;
  if ((end.errorStop && !errors.error) || (state.label === 'waiting' && !errors.knows(state.awaited ?? []))) {
    const page = await tolerated(sessions.historyPage(client, sessionId, { order: 'desc', page_size: RECENT_EVENTS }));
    for (const e of [...(page?.items ?? [])].reverse()) errors.see(e);
  }
  if (state.label === 'interrupted' && !state.held) {
    const pending = await tolerated(sessions.pending(client, sessionId));
    if (pending?.items?.length) end = withPending(end, pending.items.length);
  }
  errors.finish(end);
}
