import { backoffMs, peerWaitMs } from '../backoff';
import { ApiError, NetworkError } from '../errors';
import { CONTROL_FRAME, CURSOR_NOW, CURSOR_START, ERROR_FRAME, type SessionEvent } from '../../wire/events';
import { LIMITS } from '../../wire/limits';
import { sleep } from '../../async/sleep';
import { eventsAfter, historyPages, newestAnchor, type Anchor, type Where } from './backfill';
import { Connection, DeadConnectionError } from './connection';
import { Delivered } from './dedupe';
import type { SseFrame } from './frames';
import { FrameDelta, FrameEvent, HistoryEvent } from './items';
import type { ConnectionState, Follow, FollowBatches, FollowOptions, StreamItem } from './types';

/**
 * Follows a session or thread stream with the spec's resume rules ("Event stream", "Event history"):
 * history then live, reconnects from the last frame id, expired-cursor recovery, never a complete event twice.
 */
export const follow: Follow = (opts) => ({ [Symbol.asyncIterator]: () => oneByOne(followItems(opts)) });

/**
 * The same reader, one batch per socket chunk (or history page, or backfill): a consumer that handles a batch at
 * once (the NDJSON tail) pays the async step per chunk, not per event.
 */
export const followBatches: FollowBatches = (opts) => ({ [Symbol.asyncIterator]: () => followItems(opts) });

const connection = (state: ConnectionState): StreamItem => ({ kind: 'connection', state });

/**
 * The batches' items one at a time, without a generator around them: an item already read costs one resolved
 * promise (a `yield*` over each batch cost several hops per item, a third of the live view's throughput).
 */
function oneByOne(batches: AsyncGenerator<StreamItem[]>): AsyncIterator<StreamItem> {
  let batch: StreamItem[] = [];
  let i = 0;
  return {
    async next() {
      while (i === batch.length) {
        const r = await batches.next();
        if (r.done) return { done: true, value: undefined };
        batch = r.value;
        i = 0;
      }
      return { done: false, value: batch[i++] };
    },
    // Leaving the loop early closes the connection (the generator's finally).
    async return() {
      await batches.return(undefined);
      return { done: true, value: undefined };
    },
  };
}

async function* followItems(o: FollowOptions): AsyncGenerator<StreamItem[]> {
  const where: Where = { client: o.client, sessionId: o.sessionId, threadId: o.threadId, signal: o.signal };
  const delivered = new Delivered();
  const maxRetries = o.maxRetries ?? o.client.maxRetries;
  const deadAfterMs = 2 * (o.heartbeatMs ?? LIMITS.heartbeatMs);
  const random = o.random ?? Math.random;
  const aborted = () => o.signal?.aborted === true;
  /** History and backfill: parsed already, and what the next seam may bring back. */
  const fromHistory = (events: SessionEvent[]): StreamItem[] => {
    const out: StreamItem[] = [];
    for (const e of events) {
      const it = new HistoryEvent(e);
      if (!delivered.accept(it)) continue;
      delivered.remember(e.id);
      out.push(it);
    }
    return out;
  };

  /** What a backfill starts after when nothing has been delivered yet. */
  let startAnchor: Anchor | Promise<Anchor> = { kind: 'unknown' };
  let cursor = o.cursor ?? CURSOR_START;
  /** Consecutive failed connection attempts (docs/behaviour.md: reset on every successful connection). */
  let failures = 0;
  /** The cursor expired: the next connection is `cursor=now` followed by a backfill . */
  let recovering = false;

  yield [connection({ kind: 'connecting' })];
  try {
    if (o.cursor === undefined) {
      // History first, then live from the last page's stream_cursor, never next_page_token.
      let streamCursor: string | undefined;
      for await (const page of historyPages(where)) {
        const batch = fromHistory(page.items);
        if (batch.length) yield batch;
        streamCursor = page.stream_cursor ?? undefined;
      }
      startAnchor = { kind: 'start' };
      // The live stream may repeat the end of the history; without a stream_cursor it replays from the
      // start, and everything up to the last history event is a repeat.
      delivered.seal();
      cursor = streamCursor ?? CURSOR_START;
    }

    for (;;) {
      if (aborted()) break;
      let conn: Connection | undefined;
      let reason = 'the stream closed without an error frame';
      let connected = false;
      /** What a 429 that refused the connection asked for (Retry-After). */
      let asked: number | undefined;
      // Events delivered after the last frame id come back on this reconnect: a seam.
      if (delivered.uncursored) delivered.seal();
      try {
        conn = await Connection.open({ ...where, cursor: recovering ? CURSOR_NOW : cursor, deltas: o.deltas === true, deadAfterMs });
        let broke = false;
        while (!broke) {
          const frames = conn.frames.takeAll();
          if (!frames.length) {
            if (conn.frames.ended) break;
            await conn.frames.wait();
            continue;
          }
          const out: StreamItem[] = [];
          for (const f of frames) {
            const type = f.event;
            if (type === CONTROL_FRAME) {
              cursor = f.id ?? controlCursor(f) ?? cursor;
              if (o.cursor === CURSOR_NOW && !delivered.last && !(startAnchor instanceof Promise) && startAnchor.kind === 'unknown') {
                // The newest event before this live-only stream: where a later backfill would start.
                startAnchor = newestAnchor(where).catch((): Anchor => ({ kind: 'unknown' }));
              }
              if (recovering) {
                const anchor: Anchor = delivered.last ? { kind: 'after', ...delivered.last } : await startAnchor;
                // Live frames keep arriving into the connection's queue while history is read.
                out.push(...fromHistory(await eventsAfter(where, anchor)));
                delivered.seal();
                recovering = false;
              }
              connected = true;
              failures = 0;
              out.push(connection({ kind: 'live' }));
              continue;
            }
            if (type === ERROR_FRAME) {
              reason = describeErrorFrame(f);
              broke = true;
              break;
            }
            if (type === 'agent.delta') {
              if (f.id !== undefined) cursor = f.id;
              if (o.deltas) out.push(new FrameDelta(f.data));
              continue;
            }
            // A frame without `event` (SSE's default "message") names no type: read it from the data.
            const it = new FrameEvent(f.data, type ?? (JSON.parse(f.data) as SessionEvent).type);
            if (!delivered.accept(it)) continue;
            // Stored and replayed unchanged, never parsed.
            if (f.id !== undefined) {
              cursor = f.id;
              delivered.forget();
            } else delivered.remember(it.event.id);
            out.push(it);
          }
          if (out.length) yield out;
        }
        if (!broke) {
          if (conn.dead) reason = conn.dead;
          else if (conn.frames.failure && !aborted()) reason = `the stream broke: ${describe(conn.frames.failure)}`;
        }
      } catch (e) {
        if (aborted()) break;
        if (!recovering && isExpiredCursor(e)) {
          recovering = true;
          // Previews in progress cannot be rebuilt: consumers drop them on this state.
          yield [connection({ kind: 'backfilling' })];
          continue;
        }
        if (!isTransient(e)) throw e;
        reason = describe(e);
        asked = e instanceof ApiError ? e.retryAfterMs : undefined;
      } finally {
        conn?.close();
      }
      if (aborted()) break;
      if (!connected && ++failures > maxRetries) throw new NetworkError(`the event stream did not reopen after ${failures} attempts: ${reason}`);
      // Reconnecting never retries execution: only the stream is reopened.
      // A 429's Retry-After is honoured, clamped (a hostile one neither floods nor stalls the stream).
      const wait = peerWaitMs(asked, backoffMs(Math.max(1, failures), random, undefined, o.backoffCapMs));
      yield [connection({ kind: 'reconnecting', attempt: failures + (connected ? 1 : 0), reason, retryInMs: wait })];
      await sleep(wait, o.signal, o.sleep);
    }
  } catch (e) {
    if (!aborted()) throw e;
  }
  yield [connection({ kind: 'closed' })];
}

function controlCursor(f: SseFrame): string | undefined {
  try {
    const c = (JSON.parse(f.data) as { cursor?: unknown }).cursor;
    return typeof c === 'string' ? c : undefined;
  } catch {
    return undefined;
  }
}

/** The error frame's type and message, for the reconnect notice. */
function describeErrorFrame(f: SseFrame): string {
  try {
    const e = (JSON.parse(f.data) as { error?: { type?: string; message?: string } }).error;
    if (e) return `stream error ${e.type ?? 'unknown'}: ${e.message ?? ''}`.trim();
  } catch {
    // another shape: report it as a bare error frame
  }
  return 'stream error';
}

/** docs/service.md: an expired or unusable cursor is 400 invalid_parameter_error, param `cursor` (or `query.cursor`). */
function isExpiredCursor(e: unknown): boolean {
  return e instanceof ApiError && e.status === 400 && e.type === 'invalid_parameter_error' && (e.param === 'cursor' || e.param === 'query.cursor');
}

/** Worth another connection: no answer, a dead connection, throttling or a server failure. */
function isTransient(e: unknown): boolean {
  if (e instanceof NetworkError || e instanceof DeadConnectionError) return true;
  return e instanceof ApiError && (e.status === 429 || e.status >= 500) && e.type !== 'exceeded_current_quota_error';
}

function describe(e: unknown): string {
  if (e instanceof ApiError) return `${e.message} (status ${e.status})`;
  return e instanceof Error ? e.message : String(e);
}
