/**
 * The contract between the SSE client (src/api/stream/resumable.ts) and its consumers: the NDJSON tail,
 * `sessions wait`, `run`, the live view (src/live/) and the worker (src/worker/).
 */
import type { ApiClient } from '../client';
import type { DeltaEvent, SessionEvent } from '../../wire/events';

/** The stream's connection, as the live view's header and stderr notices show it. */
export type ConnectionState =
  | { kind: 'connecting' }
  | { kind: 'live' }
  /** `retryInMs`: the wait before the next attempt. */
  | { kind: 'reconnecting'; attempt: number; reason: string; retryInMs?: number }
  | { kind: 'backfilling' }
  | { kind: 'closed' };

export type StreamItem =
  /**
   * A complete event, delivered once, in history order. `raw` is the frame's data exactly as received when it is
   * one line (pass-through), else the event re-serialised on one line. The reader fills `event` on first read
   * (src/api/stream/items.ts), so a consumer that needs only `raw` and `type` never parses it.
   */
  | { kind: 'event'; readonly event: SessionEvent; readonly raw: string; readonly type?: string }
  /** A live-only preview; never replayed after a reconnect. `raw` as received; `delta` parsed on first read. */
  | { kind: 'delta'; readonly delta: DeltaEvent; readonly raw: string }
  /** The connection changed state; a consumer discards unfinished previews on anything but `live`. */
  | { kind: 'connection'; state: ConnectionState };

export interface FollowOptions {
  /** Carries the credential: the API key, or a worker's session token. */
  client: ApiClient;
  sessionId: string;
  /** Follow one thread's stream instead of the session's. */
  threadId?: string;
  /**
   * Where to start: undefined → the whole history, then live from its `stream_cursor`;
   * 'now' → live events only; any other value → an opaque cursor from a previous frame id.
   */
  cursor?: string;
  /** Ask for `agent.delta` items (dropped otherwise). */
  deltas?: boolean;
  signal?: AbortSignal;
  /** Expected keep-alive interval; two missed intervals mean a dead connection (spec: 30 s). */
  heartbeatMs?: number;
  /** Consecutive failed connection attempts before giving up; resets on every successful connection. */
  maxRetries?: number;
  /** The longest wait between two attempts (default: the client's back-off cap). */
  backoffCapMs?: number;
  /** Waits between reconnects (injected by tests); default setTimeout. Aborted by `signal`. */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source for the back-off, in [0, 1). */
  random?: () => number;
}

export type EventItem = Extract<StreamItem, { kind: 'event' }>;

/** Follows a session (or thread) stream with the spec's resume rules; never yields a complete event twice. */
export type Follow = (opts: FollowOptions) => AsyncIterable<StreamItem>;

/** The same items, in the batches they arrived in (one per socket chunk, history page or backfill); never empty. */
export type FollowBatches = (opts: FollowOptions) => AsyncIterable<StreamItem[]>;

/** An event's type without parsing it when the frame named it (a frame's `event` is the event type). */
export const typeOf = (it: EventItem): string => it.type ?? it.event.type;
