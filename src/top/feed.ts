/**
 * The board's data: the watch poller for sessions (one small request per interval on a quiet fleet), the work rows
 * and triggers of the view on screen, one cached read per agent for names, pending-input counts of the rows on
 * screen when they change, and live streams (no deltas) for the running sessions on screen. It only dispatches to
 * the store; nothing here draws.
 */
import type { ApiClient } from '../api/client';
import { environments } from '../api/environments';
import { ApiError, NetworkError } from '../api/errors';
import type { Obj } from '../api/resources';
import { sessions } from '../api/sessions';
import { follow } from '../api/stream/resumable';
import { triggers } from '../api/triggers';
import { work } from '../api/work';
import { AgentNames } from '../selection/agent-names';
import { resolveId } from '../selection/names';
import { sessionSelection, type SessionSelectors } from '../selection/selectors';
import { watch, watchRetryMs, WATCH_RETRY_CAP_MS } from '../watch/list-watch';
import type { SessionEvent } from '../wire/events';
import { lastRun, type SessionRow } from './rows';
import { streamedSessions, windowOf, type BoardState } from './state';
import type { BoardStore } from './store';
import { inParallel } from '../async/parallel';

/** The longest wait between two tries while the service is unreachable. */
export const RETRY_CAP_MS = WATCH_RETRY_CAP_MS;
/** Sessions listed per page: the largest the service serves, so a big fleet loads in few requests. */
const PAGE = 1000;
/** Pending-input reads in flight at once. */
const READS_IN_FLIGHT = 4;
/** A trigger's last run is read again every this many polls even when the trigger did not change. */
const RUNS_EVERY = 30;

export interface FeedOptions {
  client: ApiClient;
  store: BoardStore;
  selectors: SessionSelectors;
  intervalMs: number;
  signal: AbortSignal;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  random?: () => number;
}

export interface Feed {
  /** Polls now rather than at the end of the interval (after a write, so its outcome shows at once). */
  poke(): void;
}

/** Starts every loop; they end when `signal` aborts. */
export function startFeed(o: FeedOptions): Feed {
  const wake = new Wake(o);
  const names = new AgentNames(o.client);
  const loadNames = (ids: Iterable<string>) =>
    void names
      .load(ids)
      .then(() => {
        const found: Record<string, string> = {};
        for (const id of ids) {
          const n = names.nameOf(id);
          if (n !== undefined && o.store.getState().agentNames[id] !== n) found[id] = n;
        }
        o.store.dispatch({ type: 'agents', names: found });
      })
      .catch(() => undefined);
  void watchSessions(o, wake, loadNames);
  void pollView(o, wake, 'work', (s) => listWork(o, s));
  void pollView(o, wake, 'triggers', (s, poll) => listTriggers(o, s, poll, loadNames));
  const screen = new Screen(o);
  const unsubscribe = o.store.subscribe(() => screen.sync(o.store.getSnapshot()));
  o.signal.addEventListener('abort', () => (unsubscribe(), screen.closeAll()), { once: true });
  return { poke: () => wake.now() };
}

/** The feed's sleep, which a write can cut short. */
class Wake {
  private wakers = new Set<() => void>();
  constructor(private readonly o: FeedOptions) {}
  sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = () => {
        this.wakers.delete(done);
        this.o.signal.removeEventListener('abort', done);
        resolve();
      };
      this.wakers.add(done);
      this.o.signal.addEventListener('abort', done, { once: true });
      void this.o.sleep(ms).then(done);
    });
  now(): void {
    for (const w of [...this.wakers]) w();
  }
}

/** Why a request failed, in a few words, and how long to wait before trying again (a 429's Retry-After, clamped). */
function retryPlan(e: unknown, attempt: number, random: () => number): { message: string; waitMs: number } {
  const message = e instanceof Error ? e.message : String(e);
  return { message, waitMs: watchRetryMs(e, attempt, random) };
}

/**
 * The sessions through src/watch/list-watch.ts. A failed listing does not end the watch: the board says so in its header and
 * the watch tries again after a back-off (a 429's Retry-After, clamped), with a full listing that drops the rows
 * deleted meanwhile.
 */
async function watchSessions(o: FeedOptions, wake: Wake, loadNames: (ids: Iterable<string>) => void): Promise<void> {
  const { store, client, selectors } = o;
  let upserts: Obj[] = [];
  let removals: string[] = [];
  const flush = () => {
    if (upserts.length) {
      const fresh = upserts;
      upserts = [];
      store.dispatch({ type: 'sessions.upsert', items: fresh, at: o.now() });
      loadNames(new Set(fresh.map((s) => String(s.agent_id ?? ''))));
    }
    if (removals.length) {
      store.dispatch({ type: 'sessions.remove', ids: removals });
      removals = [];
    }
  };
  const failed = (e: unknown, attempt: number) => {
    flush();
    const plan = retryPlan(e, attempt, o.random ?? Math.random);
    const unreachable = e instanceof NetworkError;
    store.dispatch({ type: 'connection', connection: { kind: 'down', unreachable, attempt, message: plan.message, retryAt: o.now() + plan.waitMs } });
    return plan.waitMs;
  };
  let attempt = 0;
  while (!o.signal.aborted) {
    try {
      const selection = await sessionSelection(client, selectors, o.now(), {}, o.signal);
      const test = selection.match;
      attempt = 0;
      const shown = (s: Obj) => test(s) && (selectors.includeArchived || !s.archived_at);
      const list = async function* (q: Record<string, unknown>): AsyncGenerator<Obj> {
        const seen = 'updated_at_gt' in q ? undefined : new Set<string>();
        for await (const s of selection.read(sessions.list(client, q as never, { all: true, pageSize: PAGE }))) {
          if (seen && shown(s)) seen.add(String(s.id));
          yield s;
          if (upserts.length >= PAGE) flush();
        }
        flush();
        store.dispatch({ type: 'connection', connection: { kind: 'live' } });
        if (seen) store.dispatch({ type: 'sessions.synced', ids: seen });
        store.dispatch({ type: 'sessions.upsert', items: [], at: o.now() });
      };
      await watch({
        list,
        query: selection.query,
        match: test,
        includeArchived: selectors.includeArchived,
        intervalMs: o.intervalMs,
        signal: o.signal,
        sleep: wake.sleep,
        now: o.now,
        emit: (type, s) => {
          if (type === 'DELETED') removals.push(String(s.id));
          else upserts.push(s);
        },
        failed,
      });
    } catch (e) {
      // Only the agent's lookup gets here: the watch itself outlives its failures.
      if (o.signal.aborted) return;
      await wake.sleep(failed(e, ++attempt));
    }
  }
}

/** Lists what a view shows, each interval while it is on screen (a quiet board costs the sessions' poll alone). */
async function pollView(o: FeedOptions, wake: Wake, view: 'work' | 'triggers', list: (s: BoardState, poll: number) => Promise<void>): Promise<void> {
  let poll = 0;
  let attempt = 0;
  while (!o.signal.aborted) {
    if (o.store.getState().view !== view) {
      await untilView(o, view);
      continue;
    }
    try {
      await list(o.store.getState(), poll++);
      attempt = 0;
      await wake.sleep(o.intervalMs);
    } catch (e) {
      if (o.signal.aborted) return;
      const plan = retryPlan(e, ++attempt, o.random ?? Math.random);
      o.store.dispatch({ type: 'notice', notice: { text: `listing ${view} failed: ${plan.message}; trying again`, level: 'error' } });
      await wake.sleep(plan.waitMs);
    }
  }
}

function untilView(o: FeedOptions, view: string): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      unsubscribe();
      o.signal.removeEventListener('abort', done);
      resolve();
    };
    const unsubscribe = o.store.subscribe(() => {
      if (o.store.getState().view === view) done();
    });
    o.signal.addEventListener('abort', done, { once: true });
  });
}

async function listWork(o: FeedOptions, s: BoardState): Promise<void> {
  const env = s.environment;
  if (!env) return;
  const id = env.id ?? (await resolveId(o.client, environments, 'environment', env.ref));
  if (!env.id) o.store.dispatch({ type: 'environment', id });
  const rows: Obj[] = [];
  for await (const r of work.list(o.client, id, {}, { all: true, pageSize: PAGE })) rows.push(r);
  o.store.dispatch({ type: 'work.list', items: rows });
}

const runsRead = new WeakMap<ApiClient, Map<string, number>>();

async function listTriggers(o: FeedOptions, _s: BoardState, poll: number, loadNames: (ids: Iterable<string>) => void): Promise<void> {
  const rows: Obj[] = [];
  for await (const t of triggers.list(o.client, {}, { all: true, pageSize: PAGE })) rows.push(t);
  o.store.dispatch({ type: 'triggers.list', items: rows });
  loadNames(new Set(rows.map((t) => String(t.agent_id ?? ''))));
  // A trigger's newest run: read when the trigger is new or changed, and every RUNS_EVERY polls.
  const read = runsRead.get(o.client) ?? new Map<string, number>();
  runsRead.set(o.client, read);
  const stale = rows.filter((t) => poll % RUNS_EVERY === 0 || read.get(String(t.id)) !== Date.parse(String(t.updated_at)));
  await inParallel(stale, READS_IN_FLIGHT, async (t) => {
    const id = String(t.id);
    let newest: Obj | undefined;
    for await (const run of triggers.runs(o.client, id, { limit: 1 })) newest = run;
    read.set(id, Date.parse(String(t.updated_at)));
    o.store.dispatch({ type: 'lastRun', id, run: lastRun(newest) });
  });
}

/**
 * What depends on the rows on screen: a live stream per running session (at most MAX_STREAMS, closed when it scrolls
 * off or stops running), and a pending-input read per session each time it changes.
 */
class Screen {
  private readonly streams = new Map<string, AbortController>();
  private readonly pendingRead = new Map<string, number>();
  private readonly queue: string[] = [];
  private reading = 0;

  constructor(private readonly o: FeedOptions) {}

  sync(s: BoardState): void {
    // A big fleet's first listing goes first: the reads for the rows on screen would slow it down.
    if (this.o.signal.aborted || !s.synced) return;
    const want = new Set(streamedSessions(s));
    for (const [id, stop] of this.streams)
      if (!want.has(id)) {
        stop.abort();
        this.streams.delete(id);
        this.o.store.dispatch({ type: 'stream.closed', id });
      }
    for (const id of want) if (!this.streams.has(id)) this.open(id);
    if (s.view !== 'sessions') return;
    for (const r of windowOf(s, 'sessions').rows as SessionRow[]) {
      if (r.archived || this.pendingRead.get(r.id) === r.updatedAt) continue;
      this.pendingRead.set(r.id, r.updatedAt);
      this.queue.push(r.id);
    }
    this.readPending();
  }

  closeAll(): void {
    for (const stop of this.streams.values()) stop.abort();
    this.streams.clear();
  }

  private readPending(): void {
    while (this.reading < READS_IN_FLIGHT && this.queue.length) {
      const id = this.queue.shift()!;
      this.reading++;
      void sessions
        .pending(this.o.client, id)
        .then(
          (p) => this.o.store.dispatch({ type: 'pending', id, count: Array.isArray(p?.items) ? p.items.length : 0 }),
          (e: unknown) => {
            if (gone(e)) this.o.store.dispatch({ type: 'sessions.remove', ids: [id] });
            // Read again at the next change.
            else this.pendingRead.delete(id);
          },
        )
        .finally(() => {
          this.reading--;
          this.readPending();
        });
    }
  }

  private open(id: string): void {
    const stop = new AbortController();
    this.streams.set(id, stop);
    const signal = AbortSignal.any([stop.signal, this.o.signal]);
    void this.follow(id, signal).catch((e: unknown) => {
      if (signal.aborted) return;
      if (gone(e)) this.o.store.dispatch({ type: 'sessions.remove', ids: [id] });
    });
  }

  /** The step from the newest events of history, then live events as they come (new ones only: no replay). */
  private async follow(id: string, signal: AbortSignal): Promise<void> {
    const { client, store } = this.o;
    const recent = await sessions.historyPage(client, id, { order: 'desc', page_size: 20 }, undefined, signal);
    if (signal.aborted) return;
    store.dispatch({ type: 'events', id, events: [...(recent.items ?? [])].reverse().map((event) => ({ event })) });
    let batch: Array<{ event: SessionEvent; at: number }> = [];
    const drain = () => {
      if (!batch.length || signal.aborted) return;
      store.dispatch({ type: 'events', id, events: batch });
      batch = [];
    };
    for await (const item of follow({
      client,
      sessionId: id,
      cursor: 'now',
      deltas: false,
      signal,
      maxRetries: Infinity,
      backoffCapMs: RETRY_CAP_MS,
      sleep: this.o.sleep,
    })) {
      if (item.kind !== 'event') continue;
      // Events that arrive together are reduced together, each with its own arrival time.
      if (!batch.length) setImmediate(drain);
      batch.push({ event: item.event, at: this.o.now() });
    }
    drain();
  }
}

const gone = (e: unknown) => e instanceof ApiError && e.status === 404;
