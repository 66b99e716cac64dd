/**
 * `--until idle` on one thread's stream (`threads tail`, `sessions tail --thread`). A child thread's stream never
 * carries `session.status` (the thread endpoint carries that thread's events only), so the session is read instead:
 * once it is settled (idle or terminated, as `sessions tail --until idle` means it), the thread's newest persisted
 * event is the mark, and the tail ends when that event has been shown (at once if it already was).
 */
import type { ApiClient } from '../api/client';
import { sessions } from '../api/sessions';
import { outcomeOf, type Outcome } from './outcome';
import { CURSOR_NOW } from '../wire/events';
import type { NowStart } from './start-now';

/** How often the session is read while the thread is followed. */
const THREAD_POLL_MS = 1_000;

export interface ThreadEnd {
  outcome: Outcome;
  /** The session as read: its status and stop reason say how it settled. */
  session: Record<string, unknown>;
}

export class ThreadSettled {
  private lastId?: string;
  private mark?: { id?: string; end: ThreadEnd };
  private done = false;
  /** Something happened since the start: with `--cursor now` in the live view only a session settled after that counts. */
  private active: boolean;

  constructor(
    private readonly o: {
      client: ApiClient;
      sessionId: string;
      threadId: string;
      signal: AbortSignal;
      sleep: (ms: number) => Promise<void>;
      /** A failed read worth trying again: the wait before the next (the live view outlasts an outage); else it rejects. */
      retry?: (error: unknown) => number | undefined;
      /** Whether a settled session ends the tail (the live view keeps going on an awaited confirmation). */
      ends?: (end: ThreadEnd) => boolean;
      onEnd: (end: ThreadEnd) => void;
      /** As FollowOptions.cursor: with `now`, a session already settled at the start waits for the next turn, unless `start` is given. */
      cursor?: string;
      /** Where a `--cursor now` tail off the live view started: a session settled then ends it at once. */
      start?: NowStart;
    },
  ) {
    this.active = o.cursor !== CURSOR_NOW || o.start !== undefined;
  }

  /** Reads the session until it is settled (call once, when the stream is first live); rejects on a failed read. */
  async watch(): Promise<void> {
    const o = this.o;
    // With `--cursor now` the events before the start are never shown: a newest event that was already there is no mark.
    const before = o.cursor !== CURSOR_NOW ? undefined : o.start && 'before' in o.start ? o.start.before : await this.retried(() => this.newest());
    while (!o.signal.aborted && !this.mark) {
      const session = await this.retried(() => sessions.get(o.client, o.sessionId));
      const outcome = outcomeOf(session);
      const end = { outcome, session };
      if (!outcome.settled) this.active = true;
      // A terminated session takes no more turns: it ends the tail even with `--cursor now`.
      else if ((this.active || session.status === 'terminated') && (o.ends?.(end) ?? true)) {
        // Read after the session: nothing newer can come on a settled thread.
        const newest = await this.retried(() => this.newest());
        this.mark = { id: newest === before ? undefined : newest, end };
        this.check();
        return;
      }
      await o.sleep(THREAD_POLL_MS);
    }
  }

  /** A read, tried again while `retry` says so. */
  private async retried<T>(read: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await read();
      } catch (e) {
        const wait = this.o.signal.aborted ? undefined : this.o.retry?.(e);
        if (wait === undefined) throw e;
        await this.o.sleep(wait);
      }
    }
  }

  private async newest(): Promise<string | undefined> {
    const o = this.o;
    return (await sessions.historyPage(o.client, o.sessionId, { page_size: 1, order: 'desc' }, o.threadId)).items[0]?.id;
  }

  /** An event of the thread was shown. */
  saw(id: string): void {
    this.lastId = id;
    this.active = true;
    this.check();
  }

  private check(): void {
    if (this.done || !this.mark || (this.mark.id !== undefined && this.mark.id !== this.lastId)) return;
    this.done = true;
    this.o.onEnd(this.mark.end);
  }
}
