import { backoffMs, peerWaitMs } from '../api/backoff';
import type { Query } from '../api/client';
import { ApiError, NetworkError } from '../api/errors';
import type { Obj } from '../api/resources';
import { sleep } from '../async/sleep';

export type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WatchOptions {
  /** Every item the service lists for `query`, page by page. */
  list: (query: Query) => AsyncIterable<Obj>;
  /** The service's filters of the selection (time bounds); the watch adds `updated_at_gt` and `include_archived`. */
  query: Query;
  /** svc's own test of the selection; an item that stops matching is DELETED. */
  match: (o: Obj) => boolean;
  /** Archived items stay in the selection (else an archive is a DELETED). */
  includeArchived?: boolean;
  /**
   * The list takes `updated_at_gt` (the default): a poll asks only for what changed. Without it every poll is a full
   * listing, compared item by item.
   */
  incremental?: boolean;
  /** What tells a changed item from an unchanged one: `updated_at` by default, the whole object where it has none. */
  version?: (o: Obj) => string;
  intervalMs: number;
  /** A full listing every this many polls: the only way to see deletions. */
  resyncEvery?: number;
  /** Ends the watch (Ctrl-C or --timeout): the watch returns at the next wait, or as the listing in flight is cut short. */
  signal: AbortSignal;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  emit: (type: WatchType, obj: Obj) => Promise<void> | void;
  /**
   * A listing failed (`attempt` counts failures in a row): returns how long to wait before the watch tries again,
   * with what it knows kept and a full listing next; throws to end the watch. Without it a failure ends the watch.
   */
  failed?: (e: unknown, attempt: number) => number;
}

export const RESYNC_EVERY = 30;
/**
 * How far behind the client's own clock the cursor stays: one `updated_at` ahead of that clock (a skewed or hostile
 * one) cannot hide the changes after it, and a change committed late inside the margin is still listed.
 */
export const CURSOR_MARGIN_MS = 5_000;
/** The longest wait between two tries of a failed listing (a 429's Retry-After may ask up to the peer-wait cap). */
export const WATCH_RETRY_CAP_MS = 30_000;

/** How long a watch waits after its `attempt`-th failure in a row: a 429's Retry-After, clamped, else a back-off from 1 s. */
export function watchRetryMs(e: unknown, attempt: number, random: () => number): number {
  return peerWaitMs(e instanceof ApiError ? e.retryAfterMs : undefined, backoffMs(attempt, random, 1000, WATCH_RETRY_CAP_MS));
}

/** A failure a watch outlives: no answer, throttling, the service's own failure (a restart); not a refusal of the request. */
export function isPassing(e: unknown): boolean {
  if (e instanceof NetworkError) return true;
  return e instanceof ApiError && ((e.status === 429 && e.type !== 'exceeded_current_quota_error') || e.status >= 500);
}

/**
 * kubectl's `get -w` over a list endpoint: the initial list as ADDED, then every interval one request for what
 * changed since the newest `updated_at` seen (`updated_at_gt`), so a quiet fleet costs one small request. The cursor
 * never passes the client's clock less CURSOR_MARGIN_MS; what the overlap lists again is compared, not re-emitted.
 * Every `resyncEvery` polls, and after a failure, a full listing finds what was deleted.
 */
export async function watch(o: WatchOptions): Promise<void> {
  const known = new Map<string, string>();
  const version = o.version ?? ((s: Obj) => String(s.updated_at ?? ''));
  /** The newest `updated_at` listed. */
  let newest: number | undefined;
  const see = (s: Obj): WatchType | undefined => {
    const id = String(s.id);
    const updated = version(s);
    const t = Date.parse(String(s.updated_at ?? ''));
    if (Number.isFinite(t) && (newest === undefined || t > newest)) newest = t;
    const matches = o.match(s) && (o.includeArchived || !s.archived_at);
    const before = known.get(id);
    if (!matches) {
      if (before === undefined) return undefined;
      known.delete(id);
      return 'DELETED';
    }
    known.set(id, updated);
    if (before === undefined) return 'ADDED';
    return before === updated ? undefined : 'MODIFIED';
  };
  const full = async () => {
    const seen = new Set<string>();
    for await (const s of o.list(o.query)) {
      seen.add(String(s.id));
      const type = see(s);
      if (type) await o.emit(type, s);
    }
    for (const id of [...known.keys()]) {
      if (seen.has(id)) continue;
      known.delete(id);
      await o.emit('DELETED', { id });
    }
  };
  const start = o.now();
  const changed = async (startedAt: number) => {
    // Nothing listed yet: changes from the start on are new.
    const cursor = Math.min(newest ?? start, startedAt - CURSOR_MARGIN_MS);
    // Archived items too: an archive is a change the selection may drop.
    const q: Query = { ...o.query, updated_at_gt: new Date(cursor).toISOString(), include_archived: true };
    for await (const s of o.list(q)) {
      const type = see(s);
      if (type) await o.emit(type, s);
    }
  };
  const every = o.resyncEvery ?? RESYNC_EVERY;
  let failures = 0;
  /** A full listing is due: the first, each resync, and the first after a failure (deletions meanwhile). */
  let resync = true;
  // Polls start one interval apart (not one interval after the last ended), so a change waits at most an interval plus one answer.
  let started = start;
  /** The last listing failed and its wait is over: the next try goes at once. */
  let retrying = false;
  for (let poll = 0; ; poll++) {
    if (poll > 0 && !retrying && !(await sleep(Math.max(0, o.intervalMs - (o.now() - started)), o.signal, o.sleep))) return;
    retrying = false;
    started = o.now();
    try {
      if (resync || o.incremental === false || poll % every === 0) await full();
      else await changed(started);
      resync = false;
      failures = 0;
    } catch (e) {
      // Stopped while a listing was at the service (its request cut short): the same end as a stop between polls.
      if (o.signal.aborted) return;
      if (!o.failed) throw e;
      resync = true;
      const wait = o.failed(e, ++failures);
      if (!(await sleep(wait, o.signal, o.sleep))) return;
      retrying = true;
    }
  }
}
