import { Box, useInput } from 'ink';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { readKeys } from '../input';
import type { BoardSink } from '../sink';
import type { BoardStore } from '../store';
import { Figures } from './Figures';
import { Footer } from './Footer';
import { Header } from './Header';
import { Help } from './Help';
import { Table } from './Table';

/**
 * The board: header, the table of the current view (or the help), footer. It only draws what the store holds;
 * `interactive` is false when standard input cannot be put in raw mode (the board then only shows).
 */
export function Board({ store, sink, interactive = true }: { store: BoardStore; sink: BoardSink; interactive?: boolean }) {
  const s = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const now = useNow(1000);
  // The handler reads the store when a key arrives: no render-time state is captured.
  const onKey = useMemo(() => (input: string, key: Parameters<typeof readKeys>[3]) => readKeys(store, sink, input, key), [store, sink]);
  useInput(onKey, { isActive: interactive });
  return (
    <Box flexDirection="column">
      <Header s={s} now={now} />
      {s.help ? <Help s={s} /> : s.figuresOpen ? <Figures s={s} /> : <Table s={s} now={now} />}
      <Footer s={s} keys={interactive} />
    </Box>
  );
}

/** The clock, moved on every `ms` so ages and "updated ago" stay true on a quiet fleet. */
export function useNow(ms: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

/** The element the board's opener renders (JSX stays here). */
export const boardView = (props: Parameters<typeof Board>[0]) => <Board {...props} />;
