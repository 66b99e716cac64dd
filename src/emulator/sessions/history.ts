import type { SessionEvent } from '../../wire/events';
import { invalidParam } from '../errors';
import { decodeToken, encodeToken, pageSize } from '../store';
import { queryEnum } from '../validate';
import { encodeCursor, viewIncludes, type EventLog, type LogView } from './log';

export interface HistoryPage {
  items: SessionEvent[];
  next_page_token: string | null;
  stream_cursor: string;
}

/**
 * One page of history : `asc` by default, `desc` with tokens moving to earlier events;
 * `stream_cursor` resumes a stream right after the newest event of the page. Deltas are never logged.
 */
export function historyPage(log: EventLog, view: LogView, q: URLSearchParams): HistoryPage {
  const order = queryEnum(q, 'order', ['asc', 'desc'] as const) ?? 'asc';
  const size = pageSize(q);
  const token = q.get('page_token');
  const step = order === 'asc' ? 1 : -1;
  let i = order === 'asc' ? 0 : log.length - 1;
  if (token) {
    const at = Number(decodeToken(token));
    if (!Number.isInteger(at) || at < -1 || at > log.length) invalidParam('query.page_token', 'page_token is not a token of this history');
    i = at;
  }
  const picked: number[] = [];
  let more = false;
  for (; i >= 0 && i < log.length; i += step) {
    if (!viewIncludes(log, view, i)) continue;
    if (picked.length === size) {
      more = true;
      break;
    }
    picked.push(i);
  }
  const newest = picked.length ? Math.max(picked[0], picked[picked.length - 1]) + 1 : log.length;
  return {
    items: picked.map((k) => JSON.parse(log.jsonAt(k)) as SessionEvent),
    next_page_token: more ? encodeToken(String(i)) : null,
    stream_cursor: encodeCursor(view, newest),
  };
}
