import type { ServerResponse } from 'node:http';
import { CONTROL_FRAME, CURSOR_NOW, ERROR_FRAME, HEARTBEAT_LINE, type ControlReason } from '../../wire/events';
import { invalidParam } from '../errors';
import type { FaultConfig, Faults } from '../faults';
import { decodeCursor, encodeCursor, viewIncludes, type EventLog, type LogView } from './log';

/** Resolves when the socket drains or closes, leaving no listener behind. */
function writable(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

const frame = (id: string, event: string, data: string): string => `id: ${id}\nevent: ${event}\ndata: ${data}\n\n`;

/** One open SSE response following a session or thread view. */
class Subscriber {
  /** Position of the last event considered (sent or filtered out). */
  next: number;
  /** Caught up with the log: new events are fanned out to it directly. */
  live = false;
  closed = false;
  private sent = 0;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    readonly res: ServerResponse,
    readonly view: LogView,
    readonly includeDeltas: boolean,
    start: number,
    private readonly limits: { dropAfter?: number; errorAfter?: number },
    private readonly onFault: (name: string) => void,
    private readonly requestId: string,
    heartbeatMs: number,
    private readonly onClose: (s: Subscriber) => void,
  ) {
    this.next = start;
    this.heartbeat = setInterval(() => res.write(`${HEARTBEAT_LINE}\n\n`), heartbeatMs);
    this.heartbeat.unref();
    res.once('close', () => this.close());
  }

  /** Writes one event frame; false when the socket buffer is full. Applies the stream faults. */
  send(text: string): boolean {
    if (this.closed) return true;
    const ok = this.res.write(text);
    this.sent++;
    if (this.limits.errorAfter !== undefined && this.sent >= this.limits.errorAfter) {
      this.onFault('stream_errors');
      this.fail('server_error', 'the stream failed (injected)');
    } else if (this.limits.dropAfter !== undefined && this.sent >= this.limits.dropAfter) {
      this.onFault('stream_drops');
      this.close();
    }
    return ok;
  }

  /** `event: error` with the spec's error shape, then close. */
  fail(type: string, message: string): void {
    if (this.closed) return;
    this.res.write(frame(encodeCursor(this.view, this.next), ERROR_FRAME, JSON.stringify({ error: { type, message, request_id: this.requestId } })));
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.res.end();
    this.onClose(this);
  }
}

export interface OpenStream {
  res: ServerResponse;
  view: LogView;
  cursor: string | undefined;
  includeDeltas: boolean;
  requestId: string;
}

/** The open streams of one session: replays from the log, then fans out each new frame string once built. */
export class StreamHub {
  private readonly subs = new Set<Subscriber>();

  constructor(
    private readonly log: EventLog,
    private readonly faults: Faults,
    private readonly heartbeatMs: number,
  ) {}

  get size(): number {
    return this.subs.size;
  }

  /** Validates the cursor (400 param `cursor` before anything is written), then opens the SSE response. */
  open(o: OpenStream): void {
    const head = this.log.length;
    const config: FaultConfig = this.faults.config;
    let start = 0;
    let reason: ControlReason = 'start';
    if (o.cursor === CURSOR_NOW) {
      start = head;
      reason = 'now';
    } else if (o.cursor !== undefined) {
      const pos = decodeCursor(o.view, o.cursor, head);
      // docs/service.md: an expired or unusable cursor is 400 invalid_parameter_error, param `cursor`.
      if (pos === undefined) invalidParam('cursor', 'the cursor is not usable on this stream');
      const maxAge = config.expire_cursors_older_than;
      if (maxAge !== undefined && head - pos! > maxAge) {
        this.faults.count('cursors_expired');
        invalidParam('cursor', 'the cursor has expired; open a cursor=now stream and backfill from history');
      }
      start = pos!;
      reason = 'resume';
    }
    o.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no', connection: 'keep-alive' });
    o.res.flushHeaders();
    const cursor = encodeCursor(o.view, start);
    o.res.write(frame(cursor, CONTROL_FRAME, JSON.stringify({ cursor, reason })));
    const sub = new Subscriber(
      o.res,
      o.view,
      o.includeDeltas,
      start,
      { dropAfter: config.drop_stream_after, errorAfter: config.error_stream_after },
      (name) => this.faults.count(name),
      o.requestId,
      this.heartbeatMs,
      (s) => this.subs.delete(s),
    );
    this.subs.add(sub);
    // A socket that fails while catching up ends that subscriber only.
    this.catchUp(sub).catch(() => sub.close());
  }

  /** Sends the log from the subscriber's position, waiting on the socket when it is full, then goes live. */
  private async catchUp(sub: Subscriber): Promise<void> {
    while (sub.next < this.log.length && !sub.closed) {
      const i = sub.next++;
      if (!viewIncludes(this.log, sub.view, i)) continue;
      const ok = sub.send(frame(encodeCursor(sub.view, i + 1), this.log.typeAt(i), this.log.jsonAt(i)));
      if (!ok && !sub.closed) await writable(sub.res);
    }
    sub.live = true;
  }

  /**
   * A new event (`type`, `json`) was appended at `pos`: one frame string per view, shared by every live
   * subscriber. The caller passes the JSON it just logged so the hot path never decodes it back from the log.
   */
  publish(pos: number, type: string, json: string): void {
    if (this.subs.size === 0) return;
    const i = pos - 1;
    const cache = new Map<string | undefined, string>();
    for (const sub of this.subs) {
      if (!sub.live) continue;
      sub.next = pos;
      if (!viewIncludes(this.log, sub.view, i)) continue;
      let text = cache.get(sub.view.threadId);
      if (text === undefined) cache.set(sub.view.threadId, (text = frame(encodeCursor(sub.view, pos), type, json)));
      sub.send(text);
    }
  }

  /** A live-only `agent.delta` (never in history): sent to live subscribers that asked for deltas. */
  publishDelta(threadId: string | undefined, json: string): void {
    const cache = new Map<string | undefined, string>();
    for (const sub of this.subs) {
      if (!sub.live || !sub.includeDeltas) continue;
      if (sub.view.threadId !== undefined && sub.view.match !== threadId) continue;
      let text = cache.get(sub.view.threadId);
      if (text === undefined) cache.set(sub.view.threadId, (text = frame(encodeCursor(sub.view, sub.next), 'agent.delta', json)));
      sub.send(text);
    }
  }

  /** The session went away: every stream gets `event: error` and closes. */
  failAll(type: string, message: string): void {
    for (const sub of [...this.subs]) sub.fail(type, message);
  }

  closeAll(): void {
    for (const sub of [...this.subs]) sub.close();
  }
}
