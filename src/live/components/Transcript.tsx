import { useStdout } from 'ink';
import { useLayoutEffect, useRef } from 'react';
import type { Item } from '../items';
import { itemLines, transcriptLines, type Paint } from '../lines';

/**
 * Finished items are written once above the live area and never re-rendered, through Ink's `useStdout().write`
 * (the string form of <Static>). <Static> itself keeps every line it ever printed in Ink's memory and lays out
 * each one: about 6 ms per 1,000 lines and 70 MB over a million events (bench/live-memory.mjs), against the
 * bounded memory the view promises. Once written, the items are acknowledged so the store drops them.
 */
export function Transcript({
  items,
  filter,
  paint,
  onFlushed,
  onWrite,
}: {
  items: readonly Item[];
  filter: string;
  paint: Paint;
  onFlushed: (seq: number) => void;
  onWrite?: (text: string) => void;
}) {
  const { write } = useStdout();
  const written = useRef(0);
  /** The filter the lines being written were received under: each filter marker switches it, in order. */
  const writing = useRef(filter);
  // Not state copied into state: the terminal now holds these items, so the store may forget them.
  useLayoutEffect(() => {
    const last = items.at(-1)?.seq;
    if (last === undefined || last <= written.current) return;
    const lines = transcriptLines(items, written.current, writing.current, (i) => itemLines(i, paint));
    // A marker dropped while the view fell behind must not leave an old filter in force.
    writing.current = filter;
    if (lines.length) {
      const text = lines.join('\n') + '\n';
      write(text);
      onWrite?.(text);
    }
    written.current = last;
    onFlushed(last);
  }, [items, filter, paint, write, onFlushed, onWrite]);
  return null;
}
