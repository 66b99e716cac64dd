import { Box, Text, useInput } from 'ink';
import { useMemo, useSyncExternalStore } from 'react';
import { escapeLineControls } from '../../output/controls';
import { useNow } from '../../top/components/Board';
import { ordered, selectedItem, type QueueItem, type QueueState } from '../queue';
import { footerKeys, QUEUE_KEYS } from './keys';
import { readKeys, type QueueSink } from './input';
import type { QueueStore } from './store';

/** Rows of the list shown at most; the input below it gets the rest of the screen. */
const LIST_ROWS = 8;
const INPUT_ROWS = 12;

/** The queue: a header, the awaited calls oldest first, the selected call's input, the footer built from the key table. */
export function Queue({ store, sink, interactive = true }: { store: QueueStore; sink: QueueSink; interactive?: boolean }) {
  const s = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const now = useNow(1000);
  const onKey = useMemo(() => (input: string, key: Parameters<typeof readKeys>[3]) => readKeys(store, sink, input, key), [store, sink]);
  useInput(onKey, { isActive: interactive });
  return <QueueScreen s={s} now={now} />;
}

/** What the queue draws for a state (pure: ink-testing-library renders it too). */
export function QueueScreen({ s, now }: { s: QueueState; now: number }) {
  const list = ordered(s);
  const sel = selectedItem(s);
  const at = Math.max(
    0,
    list.findIndex((i) => i.key === sel?.key),
  );
  const first = Math.max(0, Math.min(at - Math.floor(LIST_ROWS / 2), list.length - LIST_ROWS));
  return (
    <Box flexDirection="column">
      <Text bold>
        svc approve · {list.length} awaited confirmation{list.length === 1 ? '' : 's'}
        {s.readonly ? ' · read-only' : ''}
        {s.loaded ? '' : ' · loading…'}
      </Text>
      {s.feedError ? <Text color="red">reading the queue failed: {escapeLineControls(s.feedError)}</Text> : null}
      {s.help ? (
        <Help />
      ) : (
        <>
          {list.length === 0 && s.loaded ? <Text dimColor>nothing awaits a confirmation</Text> : null}
          {list.slice(first, first + LIST_ROWS).map((i) => (
            <Row key={i.key} i={i} selected={i.key === sel?.key} skipped={s.skipped.has(i.key)} busy={s.busy[i.key]} now={now} />
          ))}
          {sel ? <Input i={sel} scroll={s.scroll} /> : null}
        </>
      )}
      {s.denying ? <Text color="yellow">deny: message to the agent (optional, Enter sends, Esc cancels): {escapeLineControls(s.denying.text)}▏</Text> : null}
      {s.notice ? <Text color={s.notice.level === 'error' ? 'red' : 'green'}>{escapeLineControls(s.notice.text)}</Text> : null}
      <Text dimColor>
        {footerKeys(s)
          .map((k) => `${k.key} ${k.help}`)
          .join(' · ')}
      </Text>
    </Box>
  );
}

function Row({ i, selected, skipped, busy, now }: { i: QueueItem; selected: boolean; skipped: boolean; busy?: string; now: number }) {
  const line = `${selected ? '›' : ' '} ${i.title ?? i.sessionId}  ${i.agent}  ${i.tool}  ${waited(now - i.askedAt)}  ${i.threadId ? 'child' : 'main'}${
    skipped ? '  (skipped)' : ''
  }${busy ? `  ${busy}` : ''}`;
  return (
    <Text inverse={selected} dimColor={skipped && !selected} wrap="truncate">
      {escapeLineControls(line)}
    </Text>
  );
}

function Input({ i, scroll }: { i: QueueItem; scroll: number }) {
  const lines = (JSON.stringify(i.input ?? null, null, 2) ?? 'null').split('\n');
  const top = Math.min(scroll, Math.max(0, lines.length - INPUT_ROWS));
  return (
    <Box flexDirection="column" borderStyle="single" paddingX={1}>
      <Text bold>
        {escapeLineControls(`${i.tool} · ${i.sessionId} · ${i.eventId}`)}
        {lines.length > INPUT_ROWS ? ` · lines ${top + 1}-${Math.min(lines.length, top + INPUT_ROWS)} of ${lines.length} (PgUp/PgDn)` : ''}
      </Text>
      {lines.slice(top, top + INPUT_ROWS).map((l, n) => (
        <Text key={n} wrap="truncate">
          {escapeLineControls(l)}
        </Text>
      ))}
    </Box>
  );
}

function Help() {
  return (
    <Box flexDirection="column">
      {QUEUE_KEYS.filter((k) => k.command !== 'abort').map((k) => (
        <Text key={`${k.command}`}>
          {k.key.padEnd(8)} {k.help}
        </Text>
      ))}
    </Box>
  );
}

/** How long a call has waited: 42s, 5m, 3h. */
export function waited(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}m`;
  return `${Math.round(s / 3600)}h`;
}

export const queueView = (props: Parameters<typeof Queue>[0]) => <Queue {...props} />;
