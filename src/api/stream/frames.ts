import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { YoungGc } from '../../startup/young-gc';

export type SseFrame = EventSourceMessage;

/** Frames held before the socket is paused: bounded memory however slow the consumer is. */
const HIGH_WATER = 512;

/**
 * The frames of one open SSE response, read ahead into a bounded queue so the caller can do other work
 * (a history backfill) while live frames are buffered. The caller takes them a batch at a time, so per-chunk
 * work stays per chunk. Any chunk, comment or data, counts as life.
 */
export class FrameQueue {
  private items: SseFrame[] = [];
  private wakeUp?: () => void;
  private resume?: () => void;
  ended = false;
  /** Why the body stopped, when it did not end cleanly (aborted, reset). */
  failure?: unknown;
  /** When the last chunk arrived (Date.now()): the watchdog reads it rather than being re-armed per chunk. */
  lifeAt = Date.now();

  constructor(body: AsyncIterable<Buffer | Uint8Array>) {
    void this.pump(body);
  }

  /** Reading is paused because the consumer is behind: silence is not a dead connection then. */
  get paused(): boolean {
    return this.resume !== undefined;
  }

  /** Every buffered frame, oldest first; empty when none is buffered now. */
  takeAll(): SseFrame[] {
    const all = this.items;
    if (all.length === 0) return all;
    this.items = [];
    const r = this.resume;
    if (r) {
      this.resume = undefined;
      // Silence while paused was ours, not the server's.
      this.lifeAt = Date.now();
      r();
    }
    return all;
  }

  /** Resolves when a frame arrives or the body ends. */
  wait(): Promise<void> {
    if (this.items.length || this.ended) return Promise.resolve();
    return new Promise((r) => (this.wakeUp = r));
  }

  private wake(): void {
    const w = this.wakeUp;
    this.wakeUp = undefined;
    w?.();
  }

  private async pump(body: AsyncIterable<Buffer | Uint8Array>): Promise<void> {
    const parser = createParser({ onEvent: (m) => this.items.push(m) });
    const decoder = new TextDecoder();
    // Every consumer (tail, live view, run, worker) turns each frame into short-lived objects.
    const relief = new YoungGc();
    try {
      for await (const chunk of body) {
        this.lifeAt = Date.now();
        relief.bytes(chunk.length);
        parser.feed(decoder.decode(chunk, { stream: true }));
        if (this.items.length) this.wake();
        if (this.items.length >= HIGH_WATER) await new Promise<void>((r) => (this.resume = r));
      }
    } catch (e) {
      this.failure = e;
    } finally {
      this.ended = true;
      this.resume = undefined;
      this.wake();
    }
  }
}
