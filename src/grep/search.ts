/**
 * Searching the selected sessions' histories (no commander): each history read page by page into text records
 * (text.ts), or taken from the stats cache when the session is settled and unchanged; the records' lines matched
 * (match.ts) and the hits handed out per session as each is done.
 */
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { sessions } from '../api/sessions';
import type { SharedPause } from '../bulk/pause';
import type { StatsCache } from '../stats/cache';
import { eachListed, HISTORY_PAGE, settled } from '../stats/read';
import type { Session } from '../wire/resources';
import type { Follow } from '../api/stream/types';
import type { Matcher, Ranges } from './match';
import { textOf, type TextRecord } from './text';

export interface Hit {
  record: TextRecord;
  line: string;
  ranges: Ranges;
}

export interface SearchOptions {
  matcher: Matcher;
  /** Only these event types (undefined: every searched type). */
  types?: Set<string>;
  pause: SharedPause;
  concurrency: number;
  cache?: StatsCache;
  base: string;
  /** A session's hits, in history order, once its history is searched (not called for a session without one). */
  onHits: (session: Session, hits: Hit[]) => Promise<void> | void;
  /** Sessions left to the caller (`-f`: the running ones, followed instead); their histories are not read here. */
  defer?: (session: Session) => boolean;
}

export interface SearchCounts {
  read: number;
  cached: number;
  vanished: number;
  matched: number;
}

const KIND = 'grep';

/** A session's text records: from the cache when settled and unchanged, else its history (then kept when settled). */
async function recordsOf(c: ApiClient, s: Session, o: SearchOptions, counts: SearchCounts): Promise<TextRecord[] | undefined> {
  const id = String(s.id);
  const key = { base: o.base, session: id, kind: KIND };
  const marker = typeof s.updated_at === 'string' && settled(s) ? s.updated_at : undefined;
  const keep = marker !== undefined ? o.cache : undefined;
  const hit = keep?.getData(key, marker!);
  if (Array.isArray(hit)) {
    counts.cached++;
    return hit as TextRecord[];
  }
  const records: TextRecord[] = [];
  try {
    for await (const e of sessions.history(c, id, {}, { all: true, pageSize: HISTORY_PAGE })) {
      const r = textOf(e);
      if (r) records.push(r);
    }
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return void counts.vanished++;
    throw e;
  }
  counts.read++;
  keep?.putData(key, marker!, records);
  return records;
}

/** Every match in one session's records, in history order. */
export function hitsOf(records: TextRecord[], matcher: Matcher, types?: Set<string>): Hit[] {
  const wanted = types ? records.filter((r) => types.has(r.type)) : records;
  const lines: string[] = [];
  const owners: TextRecord[] = [];
  for (const r of wanted)
    for (const l of r.lines) {
      lines.push(l);
      owners.push(r);
    }
  const ranges = matcher.match(lines);
  const hits: Hit[] = [];
  for (let i = 0; i < lines.length; i++) if (ranges[i]) hits.push({ record: owners[i], line: lines[i], ranges: ranges[i]! });
  return hits;
}

export async function searchFleet(c: ApiClient, listed: AsyncIterable<Session>, o: SearchOptions): Promise<SearchCounts> {
  const counts: SearchCounts = { read: 0, cached: 0, vanished: 0, matched: 0 };
  await eachListed(listed, o, async (s) => {
    if (o.defer?.(s)) return;
    const records = await recordsOf(c, s, o, counts);
    if (!records) return;
    const hits = hitsOf(records, o.matcher, o.types);
    if (hits.length === 0) return;
    counts.matched++;
    await o.onHits(s, hits);
  });
  return counts;
}

/**
 * `-f`: each session's stream, history then live, its events matched as they come (stern style), all at once; ends
 * when every stream has ended or `signal` aborts.
 */
export async function followFleet(
  c: ApiClient,
  running: Session[],
  o: Pick<SearchOptions, 'matcher' | 'types' | 'onHits'> & { follow: Follow; signal?: AbortSignal },
): Promise<void> {
  await Promise.all(
    running.map(async (s) => {
      for await (const item of o.follow({ client: c, sessionId: String(s.id), signal: o.signal })) {
        if (item.kind !== 'event') continue;
        const r = textOf(item.event);
        const hits = r ? hitsOf([r], o.matcher, o.types) : [];
        if (hits.length) await o.onHits(s, hits);
      }
    }),
  );
}
