import type { ApiClient } from '../api/client';
import { sessions } from '../api/sessions';
import type { SessionEvent } from '../wire/events';
import { RECENT_EVENTS } from './last-turn';

/**
 * Recent history per session, newest first (one page), read at most once per command: the `--error-type` filter
 * and `explain` share it.
 */
export class RecentHistory {
  private readonly pages = new Map<string, Promise<SessionEvent[]>>();

  constructor(private readonly client: ApiClient) {}

  of(sessionId: string): Promise<SessionEvent[]> {
    let p = this.pages.get(sessionId);
    if (!p) {
      p = sessions.historyPage(this.client, sessionId, { order: 'desc', page_size: RECENT_EVENTS }).then((page) => page.items ?? []);
      this.pages.set(sessionId, p);
    }
    return p;
  }
}

/** A session's whole history, oldest first (every page): what a rerun replays. */
export async function wholeHistory(client: ApiClient, sessionId: string): Promise<SessionEvent[]> {
  const all: SessionEvent[] = [];
  for await (const e of sessions.history(client, sessionId, { order: 'asc' }, { all: true, pageSize: 1000 })) all.push(e);
  return all;
}
