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

/**
 * The persisted events after the anchor, oldest first, a page at a time, so memory holds two pages whatever the gap
 * (a listener resuming after a long downtime). The anchor is found newest first, as `eventsAfter` does, keeping
 * only each page's token; the pages are then read again by those tokens, oldest first. The newest page is kept
 * rather than read again: read again without a token, it would have moved on.
 */
export async function* eventPagesAfter(w: Where, anchor: Anchor): AsyncGenerator<SessionEvent[]> {
  if (anchor.kind !== 'after') {
    for await (const page of historyPages(w)) if (page.items.length) yield page.items;
    return;
  }
  const page = (token: string | undefined) =>
    sessions.historyPage(w.client, w.sessionId, { page_size: HISTORY_PAGE_SIZE, order: 'desc', page_token: token }, w.threadId, w.signal);
  /** A page's events after the anchor, oldest first, and whether the anchor (or an older event) ended it. */
  const gapOf = (items: SessionEvent[]) => {
    const end = items.findIndex((e) => e.id === anchor.id || time(e) < anchor.at);
    return { events: (end < 0 ? items : items.slice(0, end)).reverse(), ended: end >= 0 };
  };
  // Assumption: a page token names a position in the history (the spec's tokens move to earlier events), so the
  // same token reads the same page again, whatever was appended since.
  const tokens: string[] = [];
  const first = await page(undefined);
  const newest = gapOf(first.items);
  let token = newest.ended ? undefined : (first.next_page_token ?? undefined);
  while (token) {
    const p = await page(token);
    const gap = gapOf(p.items);
    const next = gap.ended ? undefined : (p.next_page_token ?? undefined);
    // The oldest page of the gap goes out as it is found; the others are read again after it.
    if (next) tokens.push(token);
    else if (gap.events.length) yield gap.events;
    token = next;
  }
  for (let i = tokens.length - 1; i >= 0; i--) {
    const events = gapOf((await page(tokens[i])).items).events;
    if (events.length) yield events;
  }
  if (newest.events.length) yield newest.events;
}

/** The newest persisted event now: the anchor of a stream opened with `cursor=now` before it delivers anything. */
export async function newestAnchor(w: Where): Promise<Anchor> {
  const page = await sessions.historyPage(w.client, w.sessionId, { page_size: 1, order: 'desc' }, w.threadId, w.signal);
  const e = page.items[0];
  return e ? { kind: 'after', id: e.id, at: time(e) } : { kind: 'start' };
}
