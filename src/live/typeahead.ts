/**
 * Input typed before a view opens (lines pasted into a shell without bracketed paste, keys pressed while svc starts)
 * waits in the terminal; read as keys it would interrupt a session or send a message nobody asked for. It is read and
 * dropped before the first frame, and counted so the view can say so. The live view and the fleet board share it.
 */
import type { InStream } from '../runtime/io';

/** What a terminal in raw mode offers to read: the stream's own reader, as Ink reads it. */
type RawIn = InStream & {
  read?: () => string | Buffer | null;
  on?: (event: 'readable', listener: () => void) => unknown;
  removeListener?: (event: 'readable', listener: () => void) => unknown;
};

/** Event-loop turns given to the terminal to hand over what it holds (it is already there: one poll suffices). */
const TURNS = 3;

/** One key: an escape sequence (arrows, function keys, Alt chords) or one character. */
const KEY = /\u001b(?:\[[0-9;?]*[ -/]*[@-~]|O.|.)?|[\s\S]/gu;

export const countKeys = (text: string): number => text.match(KEY)?.length ?? 0;

/**
 * Puts the terminal in raw mode (the line discipline then gives up a half-typed line too), reads what it holds and
 * drops it; returns the number of keys dropped. Raw mode stays on: the view turns it off on its way out.
 */
export async function dropTypeahead(stdin: InStream): Promise<number> {
  const tty = stdin as RawIn;
  if (!tty.isTTY || !tty.setRawMode || !tty.read || !tty.on || !tty.removeListener) return 0;
  tty.setRawMode(true);
  let text = '';
  const take = () => {
    for (let chunk = tty.read!(); chunk !== null; chunk = tty.read!()) text += String(chunk);
  };
  tty.on('readable', take);
  try {
    take();
    for (let i = 0; i < TURNS; i++) await new Promise((resolve) => setImmediate(resolve));
    take();
  } finally {
    tty.removeListener('readable', take);
  }
  return countKeys(text);
}

/** The footer's line about dropped keys. */
export const droppedText = (keys: number): string => `dropped ${keys} key${keys === 1 ? '' : 's'} typed before the view opened`;
