import type { ApiClient, Query } from '../api/client';
import type { Session } from '../wire/resources';
import { sessions } from '../api/sessions';
import type { Anchor } from '../api/stream/backfill';
import { peerWaitMs } from '../api/backoff';
import { ApiError } from '../api/errors';
import { sleep } from '../async/sleep';
import { requiresAction, sessionSelection, type SessionSelectors } from '../selection/selectors';
import { watch, watchRetryMs, type WatchType } from '../watch/list-watch';
import type { Destination } from './destination';
import { REQUIRES_ACTION, type EventFilter } from './events';
import { Intake } from './intake';
import { DeliveryQueue, type Result } from './queue';
import { awaitedEvents, isFatal, isGone, pollInto, streamInto, type ReaderDeps } from './readers';
import type { ListenState } from './state';

export interface ListenOptions {
  /** Sessions named on the command line (or standard input): a fixed set. Undefined: the selection, watched. */
  ids?: string[];
  selectors: SessionSelectors;
  chosen: EventFilter;
  /** Streams open at once; the other sessions are polled. */
  maxStreams: number;
  /** Between two polls of the fleet and of the sessions without a stream. */
  intervalMs: number;
}

export interface ListenDeps {
  client: ApiClient;
  destination: Destination;
  state: ListenState;
  /** Ctrl-C: reading stops, deliveries in flight get `graceMs`, the state is saved. */
  signal: AbortSignal;
  graceMs: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  random: () => number;
  notice: (line: string) => void;
  result: (r: Result) => void;
  /** Queue bounds and back-off, shortened by tests. */
  tuning?: Partial<Tuning>;
}

export interface Tuning {
  capacity: number;
  sessionCapacity: number;
  backoffBaseMs: number;
  backoffCapMs: number;
  noticeEveryMs: number;
}

const TUNING: Tuning = { capacity: 1024, sessionCapacity: 64, backoffBaseMs: 500, backoffCapMs: 60_000, noticeEveryMs: 60_000 };
/** Polls after a session changed that still read its history: the change may be seen before its events are. */
const READS_AFTER_CHANGE = 2;
/** Every polled session is read at least once in this many polls, changed or not. */
const SWEEP_POLLS = 30;
/** Histories read at once by the poller. */
const POLL_CONCURRENCY = 8;
/** Pages of the largest size the service serves: the selection reads the whole fleet. */
const LIST_PAGE = 1000;

export interface Summary {
  delivered: number;
  dropped: number;
  retried: number;
  /** Deliveries not settled when the listener stopped: sent again after a restart with the same state. */
  pending: number;
}

interface Tracked {
  intake: Intake;
  mode: 'stream' | 'poll';
  /** Reads of its history still due (poll mode). */
  due: number;
  updatedAt: number;
  stop: AbortController;
  task?: Promise<void>;
  /** Not read before this time (ms): the service asked for a wait (Retry-After). */
  notBefore: number;
  /** Settles once a session already waiting on a human at the start has been announced; reading waits for it. */
  ready: Promise<void>;
}

/**
 * `svc listen`: follows the selected sessions, picking up new matches as they appear, and delivers each chosen
 * event to the destination. At most `maxStreams` sessions have a stream open; the others are polled (the fleet
 * watch says which changed, and each is swept now and then). Returns when Ctrl-C stops it, or when a fixed set of
 * sessions is all gone.
 */
export async function listen(o: ListenOptions, deps: ListenDeps): Promise<Summary> {
  return new Listener(o, deps).run();
}

class Listener {
  private readonly tracked = new Map<string, Tracked>();
  private readonly queue: DeliveryQueue;
  private readonly stop = new AbortController();
  private readonly reader: ReaderDeps;
  private streams = 0;
  private sweepAt = 0;
  private failure?: unknown;
  /** A session named on the command line that does not exist: the exit code once the set has emptied. */
  private notFound?: unknown;
  /** When a fixed set empties, the listener ends. */
  private emptied?: () => void;

  constructor(
    private readonly o: ListenOptions,
    private readonly deps: ListenDeps,
  ) {
    const t = { ...TUNING, ...deps.tuning };
    this.queue = new DeliveryQueue({
      destination: deps.destination,
      capacity: t.capacity,
      sessionCapacity: t.sessionCapacity,
      settle: (sid, place) => deps.state.settle(sid, place),
      result: deps.result,
      notice: deps.notice,
      now: deps.now,
      random: deps.random,
      backoffBaseMs: t.backoffBaseMs,
      backoffCapMs: t.backoffCapMs,
      noticeEveryMs: t.noticeEveryMs,
    });
    this.reader = { client: deps.client, sleep: deps.sleep, notice: deps.notice };
  }

  async run(): Promise<Summary> {
    const onAbort = () => this.stop.abort();
    this.deps.signal.addEventListener('abort', onAbort, { once: true });
    if (this.deps.signal.aborted) this.stop.abort();
    try {
      const ended = new Promise<void>((r) => (this.emptied = r));
      const stopped = new Promise<void>((r) => this.stop.signal.addEventListener('abort', () => r(), { once: true }));
      const selecting = this.o.ids ? this.fixed(this.o.ids) : this.watchSelection();
      // A failure of either (an unknown --agent, say) stops the listener and is what it ends with.
      const working = Promise.all([selecting, this.pollLoop()]).catch((e: unknown) => this.fail(e));
      await Promise.race([working, ended, stopped]);
    } finally {
      this.deps.signal.removeEventListener('abort', onAbort);
      this.stop.abort();
      await Promise.all([...this.tracked.values()].map((t) => t.task));
      await this.queue.close(this.deps.graceMs);
      await this.deps.destination.close?.();
      await this.deps.state.flush();
    }
    if (this.failure) throw this.failure;
    if (this.o.ids && this.tracked.size === 0 && this.notFound) throw this.notFound;
    return { ...this.queue.counts, pending: this.queue.size };
  }

  /** Sessions named on the command line; a fleet watch only when some must be polled (it says which changed). */
  private async fixed(ids: string[]): Promise<void> {
    const set = new Set(ids);
    for (const id of set) this.add(id);
    if (set.size <= this.o.maxStreams) return;
    await this.watchLoop({}, (s) => set.has(String(s.id)));
  }

  private async watchSelection(): Promise<void> {
    const sel = this.o.selectors;
    const selection = await sessionSelection(this.deps.client, sel, this.deps.now(), {}, this.stop.signal);
    // A session once followed stays followed while it exists, whatever its status becomes: its last events are
    // what a human is told about.
    await this.watchLoop(selection.query, (s) => this.tracked.has(String(s.id)) || selection.match(s), sel.includeArchived, selection.read);
  }

  /** The fleet watch (src/watch/list-watch.ts), started again after a failure that is not the credential's. */
  private async watchLoop(
    query: Query,
    match: (s: Session) => boolean,
    includeArchived = false,
    read: (items: AsyncIterable<Session>) => AsyncIterable<Session> = (items) => items,
  ): Promise<void> {
    for (let failures = 0; !this.stop.signal.aborted;) {
      try {
        await watch({
          list: (q) => read(sessions.list(this.deps.client, q, { all: true, pageSize: LIST_PAGE })),
          query,
          match,
          includeArchived,
          intervalMs: this.o.intervalMs,
          signal: this.stop.signal,
          sleep: this.deps.sleep,
          now: this.deps.now,
          emit: (type, s) => this.seen(type, s),
        });
        return;
      } catch (e) {
        if (this.stop.signal.aborted) return;
        if (isFatal(e)) return this.fail(e);
        // A 429's Retry-After is honoured (clamped), like every watch's.
        const wait = watchRetryMs(e, ++failures, this.deps.random);
        this.deps.notice(`listing sessions failed: ${(e as Error).message}; trying again in ${Math.round(wait / 1000)}s`);
        await this.pause(wait);
      }
    }
  }

  private seen(type: WatchType, s: Session): void {
    const id = String(s.id);
    const t = this.tracked.get(id);
    if (type === 'DELETED') {
      if (t) void this.leave(id, t, 'left the selection (archived or deleted)');
      return;
    }
    if (!t) return this.add(id, s);
    t.updatedAt = updatedAt(s);
    if (t.mode === 'poll') t.due = READS_AFTER_CHANGE;
  }

  private add(id: string, row?: Session): void {
    if (this.tracked.has(id) || this.stop.signal.aborted) return;
    const state = this.deps.state;
    const created = row ? Date.parse(String(row.created_at)) : NaN;
    const known = state.anchorOf(id);
    // A session the state knows resumes after its last settled event; one created since the listener first started
    // is read from its start; any other from that time on.
    const read: Anchor = known ?? (created >= state.since ? { kind: 'start' } : { kind: 'after', id: '', at: state.since });
    const t: Tracked = {
      intake: new Intake(id, read, this.queue, this.o.chosen),
      mode: 'poll',
      due: 1,
      updatedAt: row ? updatedAt(row) : 0,
      notBefore: 0,
      stop: new AbortController(),
      ready: Promise.resolve(),
    };
    if (!known && read.kind === 'after' && this.o.chosen(REQUIRES_ACTION)) t.ready = this.announceWaiting(id, t, row);
    this.tracked.set(id, t);
    if (this.streams < this.o.maxStreams) this.openStream(id, t);
  }

  /**
   * A session first seen while it already waits on a human started waiting before reading starts: its
   * `session.requires_action` is derived from the awaited calls the session lists. Without a listed row the
   * session is read.
   */
  private async announceWaiting(id: string, t: Tracked, row?: Session): Promise<void> {
    const signal = AbortSignal.any([this.stop.signal, t.stop.signal]);
    try {
      const s = row ?? (await sessions.get(this.deps.client, id));
      const ids = (s.stop_reason as { event_ids?: unknown } | null | undefined)?.event_ids;
      if (!requiresAction(s) || !Array.isArray(ids) || ids.length === 0) return;
      await t.intake.announce(await awaitedEvents(this.deps.client, id, ids.map(String), signal), signal);
    } catch (e) {
      // The reader meets the same failure and handles it (a session gone, the credential refused).
      if (!signal.aborted && !isGone(e) && !isFatal(e)) this.deps.notice(`session ${id}: reading what it waits on failed: ${(e as Error).message}`);
    }
  }

  private openStream(id: string, t: Tracked): void {
    t.mode = 'stream';
    t.stop = new AbortController();
    this.streams++;
    t.task = this.streamLoop(id, t).finally(() => {
      t.task = undefined;
      if (t.mode === 'stream') {
        t.mode = 'poll';
        this.streams--;
      }
    });
  }

  /** A stream that fails is opened again, after where reading stands; a session gone leaves. */
  private async streamLoop(id: string, t: Tracked): Promise<void> {
    const signal = AbortSignal.any([this.stop.signal, t.stop.signal]);
    for (let failures = 0; !signal.aborted;) {
      try {
        await streamInto(t.intake, this.reader, signal);
        return;
      } catch (e) {
        if (signal.aborted) return;
        if (isFatal(e)) return this.fail(e);
        if (isGone(e)) return void this.leave(id, t, 'not found', e);
        const wait = watchRetryMs(e, ++failures, this.deps.random);
        this.deps.notice(`session ${id}: the stream failed: ${(e as Error).message}; opening it again in ${Math.round(wait / 1000)}s`);
        await this.pause(wait, signal);
      }
    }
  }

  /** Reads the polled sessions that changed, and sweeps a few of the others, every interval. */
  private async pollLoop(): Promise<void> {
    while (await this.pause(this.o.intervalMs)) {
      const now = this.deps.now();
      const polled = [...this.tracked.entries()].filter(([, t]) => t.mode === 'poll' && !t.task && t.notBefore <= now);
      if (polled.length === 0) continue;
      const sweep = Math.ceil(polled.length / SWEEP_POLLS);
      const due = new Set(polled.filter(([, t]) => t.due > 0));
      for (let i = 0; i < sweep; i++) due.add(polled[(this.sweepAt + i) % polled.length]);
      this.sweepAt = (this.sweepAt + sweep) % polled.length;
      const work = [...due];
      const next = () => work.shift();
      await Promise.all(
        Array.from({ length: POLL_CONCURRENCY }, async () => {
          for (let w = next(); w && !this.stop.signal.aborted; w = next()) await this.pollOne(...w);
        }),
      );
    }
  }

  private async pollOne(id: string, t: Tracked): Promise<void> {
    const signal = AbortSignal.any([this.stop.signal, t.stop.signal]);
    // The task is set before anything is awaited: a session being read is never also given a stream.
    const task = t.ready
      .then(() => pollInto(t.intake, this.reader, signal))
      .then(
        () => {
          t.due = Math.max(0, t.due - 1);
        },
        (e: unknown) => {
          if (signal.aborted) return;
          if (isFatal(e)) return this.fail(e);
          if (isGone(e)) return void this.leave(id, t, 'not found', e);
          const asked = askedWaitMs(e);
          if (asked === undefined) return this.deps.notice(`session ${id}: reading its history failed: ${(e as Error).message}; trying again at the next poll`);
          const wait = peerWaitMs(asked, this.o.intervalMs);
          t.notBefore = this.deps.now() + wait;
          this.deps.notice(`session ${id}: reading its history failed: ${(e as Error).message}; trying again in ${Math.round(wait / 1000)}s`);
        },
      );
    t.task = task.finally(() => (t.task = undefined));
    await t.task;
  }

  /**
   * A session leaves: its reader stops, what it still has in history is read (unless it is gone), and a
   * polled session takes the freed stream.
   */
  private async leave(id: string, t: Tracked, why: string, gone?: unknown): Promise<void> {
    if (this.tracked.get(id) !== t) return;
    if (gone) this.notFound ??= gone;
    this.tracked.delete(id);
    t.stop.abort();
    await t.task;
    if (!gone && !this.stop.signal.aborted) {
      await pollInto(t.intake, this.reader, this.stop.signal).catch((e: unknown) => {
        if (!this.stop.signal.aborted && !isGone(e)) this.deps.notice(`session ${id}: reading its last events failed: ${(e as Error).message}`);
      });
    }
    this.deps.notice(`session ${id}: ${why}; no longer followed`);
    if (!this.queue.busy(id)) this.deps.state.forget(id);
    this.promote();
    if (this.o.ids && this.tracked.size === 0) this.emptied?.();
  }

  /** The polled session updated most recently takes a free stream. */
  private promote(): void {
    while (this.streams < this.o.maxStreams && !this.stop.signal.aborted) {
      let best: [string, Tracked] | undefined;
      for (const entry of this.tracked) if (entry[1].mode === 'poll' && !entry[1].task && (!best || entry[1].updatedAt > best[1].updatedAt)) best = entry;
      if (!best) return;
      this.openStream(...best);
    }
  }

  private fail(e: unknown): void {
    this.failure ??= e;
    this.stop.abort();
  }

  /** Waits `ms` unless the listener stops first; false once it has. */
  private pause(ms: number, signal: AbortSignal = this.stop.signal): Promise<boolean> {
    return sleep(ms, signal, this.deps.sleep);
  }
}

/** The wait a refusal of the service asked for (a 429's Retry-After), in ms. */
function askedWaitMs(e: unknown): number | undefined {
  return e instanceof ApiError ? e.retryAfterMs : undefined;
}

function updatedAt(s: Session): number {
  const t = Date.parse(String(s.updated_at ?? ''));
  return Number.isNaN(t) ? 0 : t;
}
