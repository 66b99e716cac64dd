import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Relief } from '../../relief';

export type SseFrame = EventSourceMessage;

/** Frames held before the socket is paused: bounded memory however slow the consumer is. */
const HIGH_WATER = 512;

/**
 * The frames of one open SSE response, read ahead into a bounded queue so the caller can do other work
 * (a history backfill) while live frames are buffered. Any chunk, comment or data, counts as life.
 */
export class FrameQueue {
  private items: SseFrame[] = [];
  private head = 0;
  private wakeUp?: () => void;
  private resume?: () => void;
  ended = false;
  /** Why the body stopped, when it did not end cleanly (aborted, reset). */
  failure?: unknown;

  constructor(body: AsyncIterable<Buffer | Uint8Array>, private readonly onLife: () => void) {
    void this.pump(body);
  }

  /** Reading is paused because the consumer is behind: silence is not a dead connection then. */
  get paused(): boolean {
    return this.resume !== undefined;
  }

  /** The next buffered frame, or undefined when none is buffered now. */
  take(): SseFrame | undefined {
    if (this.head === this.items.length) return undefined;
    const f = this.items[this.head++];
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
      const r = this.resume;
      this.resume = undefined;
      r?.();
    }
    return f;
  }

  /** Resolves when a frame arrives or the body ends. */
  wait(): Promise<void> {
    if (this.head < this.items.length || this.ended) return Promise.resolve();
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
    const relief = new Relief();
    try {
      for await (const chunk of body) {
        this.onLife();
        relief.bytes(chunk.length);
        parser.feed(decoder.decode(chunk, { stream: true }));
        if (this.head < this.items.length) this.wake();
        if (this.items.length - this.head >= HIGH_WATER) await new Promise<void>((r) => (this.resume = r));
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
