import type { ApiClient } from '../api/client';
import { sessions } from '../api/sessions';
import { CURSOR_NOW } from '../wire/events';

/**
 * Where `--until idle --cursor now` starts off the live view, read before connecting: the newest event then (never
 * shown) and the history's stream cursor right after it. A session settled at the start then ends the tail at once,
 * and an event produced between this read and the connection is still shown, so a turn ending meanwhile is not cut
 * short. A service that gives no stream_cursor is followed from `now`, and the newest event is read once live instead.
 */
export type NowStart = { cursor: string; before: string | undefined } | { cursor: typeof CURSOR_NOW };

export async function startNow(client: ApiClient, sessionId: string, threadId?: string): Promise<NowStart> {
  const page = await sessions.historyPage(client, sessionId, { page_size: 1, order: 'desc' }, threadId);
  return page.stream_cursor ? { cursor: page.stream_cursor, before: page.items[0]?.id } : { cursor: CURSOR_NOW };
}
