import { write, type OutStream } from '../runtime/io';
import { escapeJsonControls, hasRawInJson } from './controls';

const FLUSH_BYTES = 64 * 1024;
const IDLE_FLUSH_MS = 5;

/**
 * The tail's pass-through writer: frame data as received plus '\n', no re-serialising, gathered into
 * ~64 KiB writes. A short idle tick flushes a quiet stream so lines still appear promptly; backpressure
 * is honoured by making the caller wait for 'drain'.
 */
export class LineBatch {
  private buf = '';
  private timer?: NodeJS.Timeout;
  private draining?: Promise<void>;

  constructor(private readonly stream: OutStream) {}

  /** Queues one line; returns a promise only when the caller must wait (stdout is full). */
  line(text: string): Promise<void> | undefined {
    return this.lines(text + '\n');
  }

  /** Queues text of whole lines, each ending in '\n' (a batch gathered by the caller); as `line`. */
  lines(text: string): Promise<void> | undefined {
    this.buf += text;
    if (this.buf.length >= FLUSH_BYTES) return this.flush();
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, IDLE_FLUSH_MS);
    return this.draining;
  }

  /** Writes what is queued; resolves once stdout has taken it. */
  flush(): Promise<void> | undefined {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.buf === '') return this.draining;
    // JSON as received may carry DEL and C1 controls raw (JSON allows them): as `\u` escapes they are the same value, inert on a terminal.
    const chunk = hasRawInJson(this.buf) ? escapeJsonControls(this.buf) : this.buf;
    this.buf = '';
    // Already waiting for 'drain': queue the chunk behind it without another listener.
    if (this.draining) this.stream.write(chunk);
    else this.draining = write(this.stream, chunk)?.then(() => (this.draining = undefined));
    return this.draining;
  }
}
