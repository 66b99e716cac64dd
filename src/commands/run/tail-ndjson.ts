import type { ApiClient } from '../../api/client';
import { sessions } from '../../api/sessions';
import { follow } from '../../api/stream/follow';
import type { ConnectionState } from '../../api/stream/types';
import type { Ctx } from '../../context';
import { InterruptedError } from '../../errors';
import { LineBatch } from '../../output/ndjson-tail';
import type { SessionEvent } from '../../wire/events';
import type { TailOptions } from '../sessions/tail';
import { outcomeOf, outcomeOfStatus, TurnErrors, type Outcome } from '../../turn/outcome';
import { canonicalEvent } from '../../live/shapes';

/**
 * NDJSON tail: one event per line, deltas only when asked, control frames never. Without --jq each line is the
 * frame's data as received (no re-serialising), batched into large writes.
 */
export async function tailNdjson(ctx: Ctx, client: ApiClient, o: TailOptions): Promise<void> {
  const jq = ctx.settings.jq;
  const out = new LineBatch(ctx.io.stdout);
  // One thread's stream never carries session.status: the session is read until it settles (src/live/thread-settled.ts).
  const threadEnd = o.untilIdle && o.threadId !== undefined ? await untilThreadSettled(ctx, client, o) : undefined;
  const until = o.untilIdle && !threadEnd ? new UntilIdle(client, o) : undefined;
  let ended: Outcome | undefined;
  try {
    const signal = threadEnd ? threadEnd.signal : ctx.io.signal;
    for await (const it of follow({ client, sessionId: o.sessionId, threadId: o.threadId, cursor: o.cursor, deltas: o.deltas, signal, sleep: ctx.sleep })) {
      if (it.kind === 'connection') {
        await notice(ctx, it.state);
        if (until && it.state.kind === 'live' && (ended = await until.live())) break;
        if (threadEnd && it.state.kind === 'live') threadEnd.live();
        continue;
      }
      if (jq) await ctx.out.item(it.kind === 'event' ? it.event : it.delta);
      else {
        // The hot path: no promise unless stdout is full.
        const full = out.line(it.raw);
        if (full) await full;
      }
      // The service's other spellings (session.status_idle …) end the tail as the spec's do.
      if (until && it.kind === 'event' && (ended = await until.event(canonicalEvent(it.event)))) break;
      if (threadEnd && it.kind === 'event') threadEnd.saw(canonicalEvent(it.event));
    }
  } finally {
    threadEnd?.stop();
    await out.flush();
  }
  if (ctx.io.signal?.aborted) throw new InterruptedError();
  if (threadEnd) return threadEnd.finish();
  // Only `--until idle` ends the tail by itself.
  if (until && ended?.settled) until.errors.finish(ended);
}

/** `--until idle` on a thread's stream: the stream is stopped once the session has settled and the thread's last event is out. */
async function untilThreadSettled(ctx: Ctx, client: ApiClient, o: TailOptions) {
  const { ThreadSettled } = await import('../../live/thread-settled');
  const stop = new AbortController();
  const signal = ctx.io.signal ? AbortSignal.any([ctx.io.signal, stop.signal]) : stop.signal;
  const errors = new TurnErrors();
  let end: Outcome | undefined;
  let failure: unknown;
  const watch = new ThreadSettled({
    client,
    sessionId: o.sessionId,
    threadId: o.threadId!,
    cursor: o.cursor,
    signal,
    sleep: ctx.sleep,
    onEnd: (e) => {
      end = e.outcome;
      stop.abort();
    },
  });
  let started = false;
  return {
    signal,
    live: () => {
      if (started) return;
      started = true;
      watch.watch().catch((e: unknown) => {
        failure = e;
        stop.abort();
      });
    },
    saw: (e: SessionEvent) => {
      errors.see(e);
      watch.saw(e.id);
    },
    stop: () => stop.abort(),
    finish: () => {
      if (failure) throw failure;
      if (end) errors.finish(end);
    },
  };
}

/** Reconnects and backfills are never silent (CLI.md "HTTP behaviour"): one stderr line each. */
export function notice(ctx: Ctx, s: ConnectionState): Promise<void> | void {
  if (s.kind === 'reconnecting') return ctx.msg(`reconnecting (attempt ${s.attempt}): ${s.reason}`);
  if (s.kind === 'backfilling') return ctx.msg('the stream cursor expired: backfilling missed events from history');
}

/**
 * `--until idle`. Once the stream is live the session is read, then its newest persisted event. A settled session
 * (idle or terminated) ends the tail when that event has been printed, so a replay prints the whole backlog first.
 * A running one ends at the first idle or terminated status from that event on, confirmed by a read (queued input
 * may already have started the next turn). With `--cursor now` only statuses after the start count.
 */
class UntilIdle {
  readonly errors = new TurnErrors();
  private checked = false;
  private lastId?: string;
  /** The newest event at the start, and what reaching it means. */
  private mark?: { id: string; settled?: Outcome };
  private counting = false;

  constructor(private readonly client: ApiClient, private readonly o: TailOptions) {}

  async live(): Promise<Outcome | undefined> {
    if (this.checked) return undefined;
    this.checked = true;
    const session = await sessions.get(this.client, this.o.sessionId);
    const start = outcomeOf(session);
    const live = this.o.cursor === 'now';
    if (live && session.status === 'terminated') return start;
    // Read after the session: a settled session has nothing newer, a running one may have ended just now.
    const newest = live ? undefined : (await sessions.historyPage(this.client, this.o.sessionId, { page_size: 1, order: 'desc' }, this.o.threadId)).items[0];
    if (newest && newest.id !== this.lastId) {
      this.mark = { id: newest.id, settled: start.settled ? start : undefined };
      return undefined;
    }
    if (start.settled && !live) return start;
    this.counting = true;
    return undefined;
  }

  async event(e: SessionEvent): Promise<Outcome | undefined> {
    this.lastId = e.id;
    this.errors.see(e);
    if (!this.counting) {
      if (!this.mark || e.id !== this.mark.id) return undefined;
      if (this.mark.settled) return this.mark.settled;
      this.counting = true;
    }
    if (!outcomeOfStatus(this.o.sessionId, e)) return undefined;
    const now = outcomeOf(await sessions.get(this.client, this.o.sessionId));
    return now.settled ? now : undefined;
  }
}
