import { backoffMs, peerWaitMs } from '../api/backoff';
import type { Delivery, Destination, Outcome } from './destination';

/** An event's place in its session: what a state file records once its delivery is settled. */
export interface Place {
  id: string;
  processed_at: string;
}

/** One delivery's end, as printed on stdout. */
export interface Result {
  delivery: Delivery;
  outcome: 'delivered' | 'dropped';
  attempts: number;
  status?: number;
  error?: string;
}

export interface QueueOptions {
  destination: Destination;
  /** Deliveries waiting or in flight, all sessions together. */
  capacity: number;
  /** Deliveries waiting or in flight for one session: one stuck session never fills the whole queue. */
  sessionCapacity: number;
  /** A session's deliveries are settled up to this event (the state file). */
  settle: (sessionId: string, place: Place) => void;
  result: (r: Result) => void;
  notice: (line: string) => void;
  now: () => number;
  random: () => number;
  backoffBaseMs: number;
  backoffCapMs: number;
  /** Between two notices that reading is paused. */
  noticeEveryMs: number;
}

interface Entry {
  delivery: Delivery;
  /** Settled once this delivery is (the events after it up to here were not chosen, or derived from it). */
  settles?: Place;
}

interface Lane {
  id: string;
  entries: Entry[];
  busy: boolean;
  queued: boolean;
  attempts: number;
  retry?: NodeJS.Timeout;
}

interface Waiter {
  delivery: Delivery;
  resolve: (queued: boolean) => void;
}

/**
 * The deliveries to one destination: a lane per session, in order, one attempt at a time per session and up to the
 * destination's concurrency across sessions. A failed attempt waits out its back-off without holding a slot, so a
 * session whose receiver keeps failing delays only itself. The queue is bounded: when it is full, `push` waits
 * (the session's reading pauses) and nothing is dropped; a notice says so once a minute while it lasts.
 */
export class DeliveryQueue {
  private readonly lanes = new Map<string, Lane>();
  private readonly ready: Lane[] = [];
  private readonly waiters: Waiter[] = [];
  private pending = 0;
  private inFlight = 0;
  private closing = false;
  private readonly abandon = new AbortController();
  private readonly flights = new Set<Promise<void>>();
  private blockedSince?: number;
  private lastNotice = -Infinity;
  private noticeTimer?: NodeJS.Timeout;
  readonly counts = { delivered: 0, dropped: 0, retried: 0 };

  constructor(private readonly o: QueueOptions) {}

  /** Deliveries waiting or in flight. */
  get size(): number {
    return this.pending;
  }

  /** Queues a delivery once there is room; false when `signal` ended the wait first (nothing was queued). */
  push(d: Delivery, signal?: AbortSignal): Promise<boolean> {
    if (this.fits(d.sessionId)) {
      this.enqueue(d);
      return Promise.resolve(true);
    }
    return this.room(d, signal);
  }

  /**
   * The session has been read up to `place`: settled at once when nothing of it is pending, else when the
   * last delivery queued so far is.
   */
  settle(sessionId: string, place: Place): void {
    const lane = this.lanes.get(sessionId);
    const last = lane?.entries.at(-1);
    if (last) last.settles = place;
    else this.o.settle(sessionId, place);
  }

  /** Whether a session has deliveries waiting or in flight. */
  busy(sessionId: string): boolean {
    return (this.lanes.get(sessionId)?.entries.length ?? 0) > 0;
  }

  /**
   * Starts nothing more; waits up to `graceMs` for the attempts in flight, then abandons them (they are delivered
   * again after a restart: their events were not settled).
   */
  async close(graceMs: number): Promise<void> {
    this.closing = true;
    for (const lane of this.lanes.values()) clearTimeout(lane.retry);
    clearInterval(this.noticeTimer);
    for (const w of this.waiters.splice(0)) w.resolve(false);
    const all = Promise.all(this.flights);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), graceMs)));
    if ((await Promise.race([all, late])) === 'late') {
      this.abandon.abort();
      // An attempt ends when abandoned; one that does not is left behind rather than holding the exit.
      await Promise.race([all, new Promise((r) => setTimeout(r, graceMs).unref())]);
    }
    clearTimeout(timer);
  }

  private fits(sessionId: string): boolean {
    return this.pending < this.o.capacity && (this.lanes.get(sessionId)?.entries.length ?? 0) < this.o.sessionCapacity;
  }

  private enqueue(d: Delivery): void {
    const lane = this.lane(d.sessionId);
    lane.entries.push({ delivery: d });
    this.pending++;
    this.schedule(lane);
  }

  private lane(id: string): Lane {
    let lane = this.lanes.get(id);
    if (!lane) {
      lane = { id, entries: [], busy: false, queued: false, attempts: 0 };
      this.lanes.set(id, lane);
    }
    return lane;
  }

  private schedule(lane: Lane): void {
    if (!lane.busy && !lane.queued && !lane.retry && lane.entries.length) {
      lane.queued = true;
      this.ready.push(lane);
    }
    this.pump();
  }

  private pump(): void {
    while (!this.closing && this.inFlight < this.o.destination.concurrency && this.ready.length) {
      const lane = this.ready.shift()!;
      lane.queued = false;
      this.start(lane);
    }
  }

  private start(lane: Lane): void {
    lane.busy = true;
    this.inFlight++;
    const entry = lane.entries[0];
    const attempt = ++lane.attempts;
    const flight = this.o.destination
      .attempt(entry.delivery, attempt, this.abandon.signal)
      .catch((e: unknown): Outcome => ({ kind: 'retry', reason: (e as Error)?.message ?? String(e) }))
      .then((outcome) => this.done(lane, entry, attempt, outcome));
    this.flights.add(flight);
    void flight.finally(() => this.flights.delete(flight));
  }

  private done(lane: Lane, entry: Entry, attempt: number, outcome: Outcome): void {
    this.inFlight--;
    lane.busy = false;
    if (this.abandon.signal.aborted) return;
    const d = entry.delivery;
    if (outcome.kind === 'later') {
      // Asked to look again: no failure, no back-off, no notice; the session's later deliveries wait behind it.
      lane.attempts = 0;
      if (!this.closing) {
        lane.retry = setTimeout(() => {
          lane.retry = undefined;
          this.schedule(lane);
        }, outcome.afterMs);
      }
      this.pump();
      return;
    }
    if (outcome.kind === 'retry') {
      this.counts.retried++;
      // The receiver's Retry-After is honoured within bounds: never sooner than the back-off (a `0` would spin),
      // never longer than a minute (a date in 2100 would stall the session); jitter adds up to 10 % to its ask.
      const asked = outcome.afterMs === undefined ? undefined : outcome.afterMs * (1 + this.o.random() * 0.1);
      const wait = Math.round(peerWaitMs(asked, backoffMs(attempt, this.o.random, this.o.backoffBaseMs, this.o.backoffCapMs)));
      this.o.notice(`delivery ${d.id} (session ${d.sessionId}, ${d.type}) attempt ${attempt} failed: ${outcome.reason}; next attempt in ${seconds(wait)}`);
      if (!this.closing) {
        lane.retry = setTimeout(() => {
          lane.retry = undefined;
          this.schedule(lane);
        }, wait);
      }
      this.pump();
      return;
    }
    lane.entries.shift();
    lane.attempts = 0;
    this.pending--;
    if (outcome.kind === 'accepted') this.counts.delivered++;
    else {
      this.counts.dropped++;
      this.o.notice(`delivery ${d.id} (session ${d.sessionId}, ${d.type}) dropped: ${outcome.reason}`);
    }
    this.o.result({
      delivery: d,
      outcome: outcome.kind === 'accepted' ? 'delivered' : 'dropped',
      attempts: attempt,
      status: outcome.status,
      error: outcome.kind === 'drop' ? outcome.reason : undefined,
    });
    if (entry.settles) this.o.settle(d.sessionId, entry.settles);
    if (lane.entries.length === 0) this.lanes.delete(lane.id);
    else this.schedule(lane);
    this.wake();
    this.pump();
  }

  private room(d: Delivery, signal?: AbortSignal): Promise<boolean> {
    if (this.closing || signal?.aborted) return Promise.resolve(false);
    this.blocked();
    return new Promise<boolean>((resolve) => {
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(false);
      };
      const waiter: Waiter = {
        delivery: d,
        resolve: (queued) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(queued);
        },
      };
      this.waiters.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Lets in every waiting push that fits now, oldest first; each is queued here, so none overfills the queue. */
  private wake(): void {
    for (let i = 0; i < this.waiters.length;) {
      const w = this.waiters[i];
      if (!this.fits(w.delivery.sessionId)) {
        i++;
        continue;
      }
      this.waiters.splice(i, 1);
      this.enqueue(w.delivery);
      w.resolve(true);
    }
    if (this.waiters.length === 0 && this.blockedSince !== undefined) {
      this.blockedSince = undefined;
      clearInterval(this.noticeTimer);
      this.noticeTimer = undefined;
    }
  }

  /** Reading pauses: said at once (at most once a minute), then once a minute while it lasts. */
  private blocked(): void {
    if (this.blockedSince !== undefined) return;
    this.blockedSince = this.o.now();
    const say = () => {
      this.lastNotice = this.o.now();
      const forMs = this.o.now() - (this.blockedSince ?? this.o.now());
      this.o.notice(
        `deliveries to ${this.o.destination.name} are behind: ${this.pending} pending, reading paused for ${this.waiters.length} session(s)${forMs >= 1000 ? ` for ${seconds(forMs)}` : ''}; nothing is dropped`,
      );
    };
    if (this.o.now() - this.lastNotice >= this.o.noticeEveryMs) queueMicrotask(say);
    this.noticeTimer = setInterval(say, this.o.noticeEveryMs);
    this.noticeTimer.unref();
  }
}

function seconds(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
  return `${Math.round(ms / 60_000)}m`;
}
