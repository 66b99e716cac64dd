import type { ApiClient } from '../api/client';
import { ApiError, NetworkError } from '../api/errors';
import { sessions } from '../api/sessions';
import type { Outcome, TurnErrors } from '../turn/outcome';

/** One page, newest first: a turn's `session.error` sits just before its idle status. */
const RECENT_EVENTS = 50;

/**
 * The session read decides the outcome, but it can show an error stop before the stream delivered the
 * turn's `session.error` (or with no stream at all, for a session already settled). The error is then read from
 * one page of history, newest first, and fed to `errors` oldest first, so a running status of a later turn
 * resets it as on the stream and exit 11 names the latest turn's error. So are awaited tool uses not seen, so exit 11
 * names the command that answers each.
 */
export async function addRecentError(client: ApiClient, sessionId: string, errors: TurnErrors, end: Outcome): Promise<void> {
  if (!end.settled) return;
  const unexplained = (end.errorStop && !errors.failure) || (end.awaiting && !errors.knows(end.awaiting));
  if (!unexplained) return;
  try {
    const page = await sessions.historyPage(client, sessionId, { order: 'desc', page_size: RECENT_EVENTS });
    for (const e of [...(page.items ?? [])].reverse()) errors.see(e);
  } catch (e) {
    // The outcome is already known (exit 11); without the history the line stays generic rather than failing otherwise.
    if (!(e instanceof ApiError || e instanceof NetworkError)) throw e;
  }
}
