import type { ApiClient } from '../client';
import { sessions } from '../sessions';
import { FrameQueue } from './frames';

export interface ConnectOptions {
  client: ApiClient;
  sessionId: string;
  threadId?: string;
  cursor: string;
  deltas: boolean;
  signal?: AbortSignal;
  /** Silence longer than this (no frame, no `: hb`) means the connection is dead. */
  deadAfterMs: number;
}

/** One open stream request: its frames, and a watchdog that aborts it when the server falls silent. */
export class Connection {
  private constructor(
    readonly frames: FrameQueue,
    private readonly abort: AbortController,
    private readonly state: Watch,
  ) {}

  /** Opens the stream (Accept text/event-stream); throws ApiError / NetworkError when it does not open. */
  static async open(o: ConnectOptions): Promise<Connection> {
    const abort = new AbortController();
    const signal = o.signal ? AbortSignal.any([o.signal, abort.signal]) : abort.signal;
    const state: Watch = {};
    // Runs before the headers too: a server that never answers is as dead as one that stops talking. When a chunk
    // came meanwhile it is re-armed for the rest of the silence: the queue notes the time, so a chunk costs no timer work.
    const check = (): void => {
      const silentMs = state.frames ? Date.now() - state.frames.lifeAt : o.deadAfterMs;
      if (state.frames?.paused) arm(o.deadAfterMs);
      else if (silentMs < o.deadAfterMs) arm(o.deadAfterMs - silentMs);
      else {
        state.dead = `no keep-alive for ${Math.round(o.deadAfterMs / 1000)}s`;
        abort.abort();
      }
    };
    const arm = (ms: number): void => {
      state.timer = setTimeout(check, ms);
      state.timer.unref();
    };
    arm(o.deadAfterMs);
    try {
      const res = await o.client.send({
        method: 'GET',
        path: sessions.streamPath(o.sessionId, o.threadId),
        // The query cursor wins over Last-Event-ID, so only the query is sent.
        query: { cursor: o.cursor, include_deltas: o.deltas ? true : undefined },
        accept: 'text/event-stream',
        timeoutMs: 0,
        // follow() counts reconnect attempts itself, so --max-retries bounds them exactly.
        maxRetries: 0,
        signal,
      });
      state.frames = new FrameQueue(res.body);
      return new Connection(state.frames, abort, state);
    } catch (e) {
      clearTimeout(state.timer);
      if (state.dead) throw new DeadConnectionError(state.dead);
      throw e;
    }
  }

  /** Why the watchdog killed it, if it did. */
  get dead(): string | undefined {
    return this.state.dead;
  }

  close(): void {
    clearTimeout(this.state.timer);
    this.abort.abort();
  }
}

interface Watch {
  dead?: string;
  frames?: FrameQueue;
  timer?: NodeJS.Timeout;
}

/** The server sent nothing for two keep-alive intervals. */
export class DeadConnectionError extends Error {
  override name = 'DeadConnectionError';
}
