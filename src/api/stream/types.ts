/**
 * The contract between the SSE client (src/api/stream/follow.ts) and its consumers: the NDJSON tail,
 * `sessions wait`, `run`, the live view (src/live/) and the worker (src/worker/).
 */
import type { ApiClient } from '../client';
import type { DeltaEvent, SessionEvent } from '../../wire/events';

/** The stream's connection, as the live view's header and stderr notices show it. */
export type ConnectionState =
  | { kind: 'connecting' }
  | { kind: 'live' }
  | { kind: 'reconnecting'; attempt: number; reason: string }
  | { kind: 'backfilling' }
  | { kind: 'closed' };

export type StreamItem =
  /** A complete event, delivered once, in history order. `raw` is the frame's data exactly as received (pass-through). */
  | { kind: 'event'; event: SessionEvent; raw: string }
  /** A live-only preview; never replayed after a reconnect. `raw` as received. */
  | { kind: 'delta'; delta: DeltaEvent; raw: string }
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
  /** Waits between reconnects (injected by tests); default setTimeout. Aborted by `signal`. */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source for the back-off, in [0, 1). */
  random?: () => number;
}

/** Follows a session (or thread) stream with the spec's resume rules; never yields a complete event twice. */
export type Follow = (opts: FollowOptions) => AsyncIterable<StreamItem>;
