import { Box, useInput } from 'ink';
import { useMemo, useSyncExternalStore } from 'react';
import { paint } from '../lines';
import { KeyReader } from '../input';
import { threadName } from '../reducer';
import type { ActionSink } from '../sink';
import type { LiveStore } from '../store';
import { Composer } from './Composer';
import { DeltaPreview } from './DeltaPreview';
import { Footer } from './Footer';
import { Header } from './Header';
import { Transcript } from './Transcript';

/**
 * The live view: finished items written above, then previews, header, composer and footer (re-rendered per frame).
 * `interactive` is false when standard input cannot be put in raw mode: the view then only shows.
 * `color` follows the CLI's colour setting for the finished lines.
 */
export function LiveApp({
  store,
  sink,
  interactive = true,
  color = false,
  onWrite,
}: {
  store: LiveStore;
  sink: ActionSink;
  interactive?: boolean;
  color?: boolean;
  /** Told each transcript write (the lines a cleared screen gets back on resize). */
  onWrite?: (text: string) => void;
}) {
  const s = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const colors = useMemo(() => paint(color), [color]);
  // The reader reads the store when a key arrives: no render-time state is captured.
  const reader = useMemo(() => new KeyReader(store, sink), [store, sink]);
  useInput(reader.read, { isActive: interactive });
  return (
    <>
      <Transcript items={s.finished} filter={s.filter} paint={colors} onFlushed={store.flushed} onWrite={onWrite} />
      <Box flexDirection="column">
        {s.showDeltas ? <DeltaPreview previews={s.previews} filter={s.filter} nameOf={(id) => threadName(s, id)} /> : null}
        <Header s={s} />
        {s.compose ? <Composer compose={s.compose} /> : null}
        <Footer s={s} keys={interactive} />
      </Box>
    </>
  );
}

/** The element open.ts renders (JSX stays here, so open.ts needs no React import of its own). */
export const liveView = (props: Parameters<typeof LiveApp>[0]) => <LiveApp {...props} />;
