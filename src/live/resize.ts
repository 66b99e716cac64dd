/**
 * A clean redraw when the terminal gets narrower. Ink then erases as many rows as its last frame had lines, but a
 * terminal that reflows (tmux, VTE, iTerm2, kitty, Windows Terminal) has already re-wrapped each line wider than the
 * new width onto several rows: the top rows of the frame, the header, stayed on the screen as ghosts (issue 17).
 * Before Ink's own resize handler runs, the rows the frame now covers are erased and the cursor is moved back to
 * where Ink expects it, so Ink's erase clears only blank rows and draws the frame once.
 *
 * Assumption: the terminal reflows on resize, as the ones named above do. xterm does not: there the extra erase
 * takes a few transcript lines off the screen (they stay in the scrollback), where ghosts would otherwise stay.
 */
import type { OutStream } from '../io';

const ESC = '\u001b[';
// eslint-disable-next-line no-control-regex
const ERASE_PREFIX = /^(?:\u001b\[2K|\u001b\[1A|\u001b\[G)+/;
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/** `lines` rows erased upwards from the cursor's row, the cursor left at the start of the topmost one (as Ink does). */
export const eraseRows = (rows: number): string => (rows > 0 ? `${ESC}2K${`${ESC}1A${ESC}2K`.repeat(rows - 1)}${ESC}G` : '');

/** The rows a frame (Ink's output, lines ending in '\n') covers at `columns` once the terminal has re-wrapped it. */
export function frameRows(frame: string, columns: number): { lines: number; rows: number } {
  const lines = frame.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const rows = lines.reduce((n, line) => n + Math.max(1, Math.ceil([...line.replace(ESCAPES, '')].length / Math.max(1, columns))), 0);
  return { lines: lines.length, rows };
}

/**
 * Watches what Ink writes to `stdout` (the last frame) and, on a narrowing resize, erases the re-wrapped frame first.
 * Returns the function that undoes it. `stdout` must emit 'resize' (a TTY).
 */
export function redrawOnResize(stdout: OutStream): () => void {
  const out = stdout as OutStream & NodeJS.EventEmitter;
  if (typeof out.prependListener !== 'function') return () => undefined;
  let frame = '';
  let columns = out.columns ?? 80;
  const own = Object.hasOwn(out, 'write');
  const write = out.write;
  out.write = function track(this: unknown, chunk: string | Uint8Array, ...rest: unknown[]) {
    if (typeof chunk === 'string') {
      const text = chunk.replace(ERASE_PREFIX, '');
      // Ink writes a frame whole, after its erase; cursor and synchronised-output switches alone are not frames.
      if (text.replace(ESCAPES, '') !== '') frame = text;
    }
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as OutStream['write'];
  const onResize = () => {
    const now = out.columns ?? columns;
    if (now < columns && frame.endsWith('\n')) {
      const { lines, rows } = frameRows(frame, now);
      // The cursor is on the row below the frame: erase it and the frame's rows, then step down over the blank rows
      // Ink's erase (lines + 1 rows) goes up through.
      if (rows > lines) write.call(out, eraseRows(rows + 1) + '\n'.repeat(lines));
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
