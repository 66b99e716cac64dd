/**
 * A clean redraw when the terminal gets narrower. Ink then erases as many rows as its last frame had
 * lines, but the frame may cover more rows by then: a reflowing terminal (VTE, iTerm2, kitty) re-wraps each line
 * wider than the new width, and any terminal wraps a frame drawn at the old width after the window shrank but before
 * the process heard of it (a streaming reply draws ~30 frames a second). Those extra rows stayed on the screen as
 * ghost header lines. How many there are cannot be known from here, so the screen is cleared instead, the last
 * transcript lines written again (they wrap at the new width), and the cursor left where Ink's own erase expects it.
 */
import type { OutStream } from '../runtime/io';

const CLEAR_SCREEN = '\u001b[2J\u001b[H';
const ERASE_PREFIX = /^(?:\u001b\[2K|\u001b\[1A|\u001b\[G)+/;
const ESCAPES = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/** The last transcript lines written (bounded), to put back on a cleared screen. */
export class RecentLines {
  private lines: string[] = [];

  constructor(private readonly max = 200) {}

  /** Text as written: lines ending in '\n'. */
  add = (text: string): void => {
    const fresh = text.split('\n');
    if (fresh.at(-1) === '') fresh.pop();
    this.lines.push(...fresh.slice(-this.max));
    if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
  };

  last(n: number): string[] {
    return n > 0 ? this.lines.slice(-n) : [];
  }
}

/**
 * Watches what Ink writes to `stdout` (its last frame) and, on a narrowing resize, clears the screen ahead of Ink's
 * own handler. Returns the function that undoes it. Only for a TTY (which emits 'resize').
 */
export function redrawOnResize(stdout: OutStream, recent: RecentLines): () => void {
  const out = stdout as OutStream & NodeJS.EventEmitter & { rows?: number };
  if (typeof out.prependListener !== 'function') return () => undefined;
  let frame = '';
  let columns = out.columns ?? 80;
  const own = Object.hasOwn(out, 'write');
  const write = out.write;
  out.write = function track(this: unknown, chunk: string | Uint8Array, ...rest: unknown[]) {
    if (typeof chunk === 'string') {
      const text = chunk.replace(ERASE_PREFIX, '');
      // Ink writes a frame whole after its erase; cursor and synchronised-output switches alone are not frames,
      // and transcript lines are always followed by the frame drawn again.
      if (text.replace(ESCAPES, '') !== '') frame = text;
    }
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as OutStream['write'];
  const onResize = () => {
    const now = out.columns ?? columns;
    if (now < columns && frame) {
      const lines = frame.split('\n').length - (frame.endsWith('\n') ? 1 : 0);
      const kept = recent.last((out.rows ?? 24) - lines - 1);
      // Ink next erases lines + 1 rows upwards from the cursor: they are blank rows below the transcript.
      write.call(out, CLEAR_SCREEN + kept.map((l) => `${l}\n`).join('') + '\n'.repeat(lines));
    }
    columns = now;
  };
  out.prependListener('resize', onResize);
  return () => {
    out.off('resize', onResize);
    if (own) out.write = write;
    else delete (out as Partial<OutStream>).write;
  };
}
