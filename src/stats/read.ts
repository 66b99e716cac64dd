/**
 * Reading histories into figures: one session's page by page (never a whole history in memory), and a fleet's with
 * bounded concurrency, a 429 pausing every reader (the bulk engine's shared pause), and settled sessions from the
 * cache when their `updated_at` is unchanged.
 */
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { Session } from '../wire/resources';
import { sessions } from '../api/sessions';
import type { SharedPause } from '../bulk/pause';
import { sessionState } from '../session/state';
import type { StatsCache } from './cache';
import { HistoryTally, type Tally } from './tally';

/** History pages of the largest size the service serves: the fewest requests per history. */
export const HISTORY_PAGE = 1000;

/** A session's (or one of its threads') whole history, folded page by page. */
export async function tallyHistory(c: ApiClient, sessionId: string, thread?: string): Promise<Tally> {
  const acc = new HistoryTally({ thread });
  for await (const e of sessions.history(c, sessionId, {}, { all: true, pageSize: HISTORY_PAGE }, thread)) acc.add(e);
  return acc.result();
}

/** The states whose history grows only with `updated_at`: none of running, rescheduling or a status the spec does not list. */
const SETTLED = new Set(['idle', 'waiting', 'interrupted', 'failed', 'terminated']);

/** A session whose history can grow only with its `updated_at`: in a state known to be settled, not winding down. */
export const settled = (s: Session): boolean => s.stopping !== true && SETTLED.has(sessionState(s).label);

export interface FleetRead {
  /** Pauses every reader on a 429 (`pausingClient`'s pause). */
  pause: SharedPause;
  concurrency: number;
  cache?: StatsCache;
  /** The service's base URL: part of each cache key. */
  base: string;
  /** Told of each session's figures as they come (in no particular order). */
  onTally: (session: Session, tally: Tally) => void;
}

export interface FleetCounts {
  read: number;
  cached: number;
  /** Listed, then gone before its history was read (deleted meanwhile). */
  vanished: number;
}

/** Reads the figures of every listed session, `o.concurrency` at a time, pulling the listing as readers free up. */
export async function tallyFleet(c: ApiClient, listed: AsyncIterable<Session>, o: FleetRead): Promise<FleetCounts> {
  const counts: FleetCounts = { read: 0, cached: 0, vanished: 0 };
  const one = async (s: Session) => {
    const id = String(s.id);
    const key = { base: o.base, session: id };
    const marker = typeof s.updated_at === 'string' ? s.updated_at : undefined;
    const keep = marker !== undefined && settled(s) ? o.cache : undefined;
    const hit = keep?.get(key, marker!);
    if (hit) {
      counts.cached++;
      return o.onTally(s, hit);
    }
    let tally: Tally;
    try {
      tally = await tallyHistory(c, id);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return void counts.vanished++;
      throw e;
    }
    counts.read++;
    keep?.put(key, marker!, tally);
    o.onTally(s, tally);
  };
  await eachListed(listed, o, one);
  return counts;
}

/** `one` for every listed session, `o.concurrency` at a time, pulling the listing as readers free up; a 429 pauses all. */
export async function eachListed(
  listed: AsyncIterable<Session>,
  o: { pause: SharedPause; concurrency: number },
  one: (s: Session) => Promise<void>,
): Promise<void> {
  const it = listed[Symbol.asyncIterator]();
  const reader = async () => {
    for (;;) {
      await o.pause.ready();
      const next = await it.next();
      if (next.done) return;
      await one(next.value);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, reader));
}
