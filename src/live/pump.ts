/** Feeds the session's stream into the view's store, batched, and notices when the turn ends. */
import type { ApiClient } from '../api/client';
import { ApiError, NetworkError } from '../api/errors';
import { follow } from '../api/stream/resumable';
import type { StreamItem } from '../api/stream/types';
import type { Ctx } from '../runtime/context';
import { sleep } from '../async/sleep';
import { TurnWatch } from '../follow/turn-end';
import { canonicalEvent } from '../wire/shapes';
import type { ApiSink } from './api-sink';
import type { Outcome } from './outcome';
import type { LiveStore } from './store';

/**
 * Events after which the header's session flags and pending-input count are read again (throttled, api-sink.ts):
 * another shell's interrupt or continue shows in them, as in the stream's control frames (each reconnect).
 */
const REFRESH_ON = new Set(['user.message', 'user.interrupt', 'session.status', 'session.updated']);
/** Stream items reduced together at most. */
const BATCH_ITEMS = 256;
/** The longest wait between two reconnects: the view keeps trying until the user leaves (docs/behaviour.md). */
export const RECONNECT_CAP_MS = 30_000;
/** How long the session read of a thread's `--until idle` waits after a failed read before the next. */
const THREAD_RETRY_MS = 2_000;

export interface PumpOptions {
  ctx: Ctx;
  client: Promise<ApiClient>;
  sessionId: string;
  threadId?: string;
  cursor?: string;
  untilIdle?: boolean;
  store: LiveStore;
  sink: ApiSink;
  signal: AbortSignal;
  /** The stream is live (each time). */
  onLive: () => void;
  finish: (o: Outcome) => void;
}

/**
 * Follows the stream into the store until `signal` aborts; returns the turn watch (what `run` prints) and `drain`,
 * which reduces the items not reduced yet (the view's last frame).
 */
export function pump(o: PumpOptions): { watch: TurnWatch; drain: (last?: StreamItem) => void } {
  const { ctx, store } = o;
  const watch = new TurnWatch(o.sessionId);
  // Items that arrive together are reduced together (one copy of the unwritten items per batch, not per event).
  // A batch is also cut at BATCH_ITEMS: a socket with a backlog is read for many chunks before setImmediate runs,
  // and whole parsed events held that long outlive young-generation collections (bench/live-memory.mjs).
  let arrived: Array<{ item: StreamItem; at: number }> = [];
  const drain = (last?: StreamItem) => {
    if (last) arrived.push({ item: last, at: ctx.now() });
    if (!arrived.length) return;
    store.dispatch({ type: 'batch', items: arrived });
    arrived = [];
  };
  void (async () => {
    try {
      const api = await o.client;
      const threadEnd = o.untilIdle && o.threadId !== undefined ? await threadSettled(o, api, watch) : undefined;
      let threadWatched = false;
      const items = follow({
        client: api,
        sessionId: o.sessionId,
        threadId: o.threadId,
        cursor: o.cursor,
        deltas: true,
        signal: o.signal,
        maxRetries: Infinity,
        backoffCapMs: RECONNECT_CAP_MS,
        sleep: ctx.sleep,
      });
      for await (const item of items) {
        if (!arrived.length) setImmediate(drain);
        if (arrived.push({ item, at: ctx.now() }) >= BATCH_ITEMS) drain();
        if (item.kind === 'connection' && item.state.kind === 'live') {
          o.onLive();
          if (threadEnd && !threadWatched) {
            threadWatched = true;
            threadEnd.watch().catch((error: unknown) => o.finish({ error }));
          }
        }
        if (item.kind !== 'event') continue;
        const event = canonicalEvent(item.event);
        if (REFRESH_ON.has(event.type)) o.sink.refresh();
        threadEnd?.saw(event.id);
        const end = o.untilIdle ? watch.see(event) : undefined;
        if (end) o.finish({ reason: end });
      }
      drain(o.signal.aborted ? undefined : { kind: 'connection', state: { kind: 'closed' } });
    } catch (error) {
      if (!o.signal.aborted) o.finish({ error });
    }
  })();
  return { watch, drain };
}

/** A child thread's stream carries no session.status: with untilIdle the session is read until it settles. */
async function threadSettled(o: PumpOptions, client: ApiClient, watch: TurnWatch) {
  const { ThreadSettled } = await import('../follow/thread-settled');
  return new ThreadSettled({
    client,
    sessionId: o.sessionId,
    threadId: o.threadId!,
    cursor: o.cursor,
    signal: o.signal,
    sleep: async (ms) => {
      await sleep(ms, o.signal);
    },
    // An outage does not end the view: the read is tried again, as the stream reconnects.
    retry: (e) => (e instanceof NetworkError || (e instanceof ApiError && e.status >= 500) ? THREAD_RETRY_MS : undefined),
    // As on the session's stream, an idle that awaits a confirmation is not an end: the view can answer it.
    ends: ({ outcome }) => !outcome.settled || outcome.state.label !== 'waiting',
    onEnd: ({ outcome }) => {
      const reason = outcome.settled ? watch.settle(outcome) : undefined;
      if (reason) o.finish({ reason });
    },
  });
}
