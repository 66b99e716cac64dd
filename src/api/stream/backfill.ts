import type { ApiClient } from '../client';
import { sessions, type HistoryPage } from '../sessions';
import type { SessionEvent } from '../../wire/events';
import { time } from './dedupe';

export const HISTORY_PAGE_SIZE = 1000;

export interface Where {
  client: ApiClient;
  sessionId: string;
  threadId?: string;
  signal?: AbortSignal;
}

/** Where a backfill starts: the beginning, after a delivered event, or unknown (the whole history, de-duplicated). */
export type Anchor = { kind: 'start' } | { kind: 'after'; id: string; at: number } | { kind: 'unknown' };

/** History pages oldest first; the last page carries the `stream_cursor` to go live with. */
export async function* historyPages(w: Where): AsyncGenerator<HistoryPage> {
  let token: string | undefined;
  do {
    const page = await sessions.historyPage(w.client, w.sessionId, { page_size: HISTORY_PAGE_SIZE, page_token: token }, w.threadId, w.signal);
    yield page;
    token = page.next_page_token ?? undefined;
  } while (token);
}

/**
 * The persisted events after the anchor, oldest first. Reads newest first and stops at the anchor,
 * so a backfill costs the gap, not the whole history.
 */
export async function eventsAfter(w: Where, anchor: Anchor): Promise<SessionEvent[]> {
  if (anchor.kind !== 'after') {
    const all: SessionEvent[] = [];
    for await (const page of historyPages(w)) all.push(...page.items);
    return all;
  }
  const newestFirst: SessionEvent[] = [];
  let token: string | undefined;
  do {
    const page = await sessions.historyPage(w.client, w.sessionId, { page_size: HISTORY_PAGE_SIZE, order: 'desc', page_token: token }, w.threadId, w.signal);
    for (const e of page.items) {
      if (e.id === anchor.id || time(e) < anchor.at) return newestFirst.reverse();
      newestFirst.push(e);
    }
    token = page.next_page_token ?? undefined;
  } while (token);
  return newestFirst.reverse();
}

/** The newest persisted event now: the anchor of a stream opened with `cursor=now` before it delivers anything. */
export async function newestAnchor(w: Where): Promise<Anchor> {
  const page = await sessions.historyPage(w.client, w.sessionId, { page_size: 1, order: 'desc' }, w.threadId, w.signal);
  const e = page.items[0];
  return e ? { kind: 'after', id: e.id, at: time(e) } : { kind: 'start' };
}
