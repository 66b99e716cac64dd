import type { OutStream } from '../runtime/io';

/** Transfers at or below this size show no bar (docs/behaviour.md: "over 1 MiB"). */
export const PROGRESS_THRESHOLD = 1024 * 1024;
/** At most ~10 redraws per second. */
const FRAME_MS = 100;
const BAR_WIDTH = 20;
const CLEAR = '\r\u001b[2K';

export interface ProgressOptions {
  label: string;
  /** Bytes expected; undefined when the size is unknown (the bar then shows bytes and rate only). */
  total?: number;
  now: () => number;
  /** Accessible mode: an appended line at each quarter (each doubling of an unknown size), never a redrawn bar. */
  accessible?: boolean;
}

/** A one-line progress bar on a terminal's stderr: bytes, percent, rate; cleared when done. */
export class Progress {
  private done = 0;
  private started: number;
  private lastDraw = -Infinity;
  private drawn = false;
  /** Accessible mode: the last step a line was written for. */
  private told = 0;

  constructor(
    private readonly stream: OutStream,
    private readonly opts: ProgressOptions,
  ) {
    this.started = opts.now();
  }

  /** A new attempt starts from zero (a retried upload re-sends the whole file). */
  restart(): void {
    this.done = 0;
    this.told = 0;
    this.started = this.opts.now();
  }

  bytes(n: number): void {
    this.done += n;
    const t = this.opts.now();
    if (this.opts.accessible) return this.tell(t);
    if (t - this.lastDraw < FRAME_MS) return;
    // An unknown size draws nothing until the transfer is past the threshold.
    if (this.opts.total === undefined && this.done <= PROGRESS_THRESHOLD) return;
    this.lastDraw = t;
    this.draw(t);
  }

  /** Removes the bar, leaving the line empty for what follows. */
  finish(): void {
    if (this.drawn) this.stream.write(CLEAR);
    this.drawn = false;
  }

  /** The text of the bar at time `t` (without control characters); `bar` false leaves the drawn bar out (words only). */
  line(t: number, bar = true): string {
    const { label, total } = this.opts;
    const seconds = Math.max((t - this.started) / 1000, 0.001);
    const rate = `${formatBytes(this.done / seconds)}/s`;
    if (total === undefined) return `${label}  ${formatBytes(this.done)}  ${rate}`;
    const ratio = total === 0 ? 1 : Math.min(this.done / total, 1);
    const filled = Math.round(ratio * BAR_WIDTH);
    const drawn = bar ? `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ` : '';
    const percent = `${Math.floor(ratio * 100)}%`.padStart(bar ? 4 : 0);
    return `${label}  ${drawn}${percent}  ${formatBytes(this.done)} / ${formatBytes(total)}  ${rate}`;
  }

  /** Steps passed: quarters of a known size, else doublings past the threshold (1 MiB, 2, 4…). */
  private step(): number {
    const { total } = this.opts;
    if (total !== undefined) return total === 0 ? 4 : Math.floor(Math.min(this.done / total, 1) * 4);
    return this.done <= PROGRESS_THRESHOLD ? 0 : Math.floor(Math.log2(this.done / PROGRESS_THRESHOLD)) + 1;
  }

  private tell(t: number): void {
    const step = this.step();
    if (step <= this.told) return;
    this.told = step;
    this.stream.write(this.line(t, false) + '\n');
  }

  private draw(t: number): void {
    let text = this.line(t);
    const width = this.stream.columns;
    if (width && text.length >= width) text = text.slice(0, Math.max(width - 1, 0));
    this.stream.write(CLEAR + text);
    this.drawn = true;
  }
}

/** A bar only when stderr is a terminal and the transfer is (or may be) over 1 MiB. */
export function progressFor(stderr: OutStream, opts: ProgressOptions): Progress | undefined {
  if (!stderr.isTTY) return undefined;
  if (opts.total !== undefined && opts.total <= PROGRESS_THRESHOLD) return undefined;
  return new Progress(stderr, opts);
}

export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${Math.round(v)} B` : `${v.toFixed(1)} ${units[i]}`;
}
