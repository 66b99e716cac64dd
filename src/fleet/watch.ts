import type { Query } from '../api/client';
import type { Obj } from '../api/resources';

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
  /** Ends the watch (Ctrl-C or --timeout): the watch returns at the next wait. */
  signal: AbortSignal;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  emit: (type: WatchType, obj: Obj) => Promise<void> | void;
}

export const RESYNC_EVERY = 30;

/**
 * kubectl's `get -w` over a list endpoint: the initial list as ADDED, then every interval one request for what
 * changed since the newest `updated_at` seen (`updated_at_gt`), so a quiet fleet costs one small request. Every
 * `resyncEvery` polls a full listing finds what was deleted.
 */
export async function watch(o: WatchOptions): Promise<void> {
  const known = new Map<string, string>();
  const version = o.version ?? ((s: Obj) => String(s.updated_at ?? ''));
  let cursor: number | undefined;
  const see = (s: Obj): WatchType | undefined => {
    const id = String(s.id);
    const updated = version(s);
    const t = Date.parse(String(s.updated_at ?? ''));
    if (Number.isFinite(t) && (cursor === undefined || t > cursor)) cursor = t;
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
  await full();
  // Nothing listed yet: changes from the start on are new.
  cursor ??= start;
  const every = o.resyncEvery ?? RESYNC_EVERY;
  // Polls start one interval apart (not one interval after the last ended), so a change waits at most an interval plus one answer.
  let started = o.now();
  for (let poll = 1; ; poll++) {
    if (!(await pause(o, Math.max(0, o.intervalMs - (o.now() - started))))) return;
    started = o.now();
    if (o.incremental === false || poll % every === 0) {
      await full();
      continue;
    }
    // Archived items too: an archive is a change the selection may drop.
    const q: Query = { ...o.query, updated_at_gt: new Date(cursor).toISOString(), include_archived: true };
    for await (const s of o.list(q)) {
      const type = see(s);
      if (type) await o.emit(type, s);
    }
  }
}

/** Waits `ms` unless the watch ends first; false when it has ended. */
async function pause(o: WatchOptions, ms: number): Promise<boolean> {
  if (o.signal.aborted) return false;
  let onAbort = () => {};
  const ended = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    o.signal.addEventListener('abort', onAbort, { once: true });
  });
  await Promise.race([o.sleep(ms), ended]);
  o.signal.removeEventListener('abort', onAbort);
  return !o.signal.aborted;
}
