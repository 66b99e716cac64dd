import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { filterName, type ViewState } from '../reducer';
import { escapeLineControls } from '../../output/controls';
import { connectionText, headerState, statusText } from '../status';

const STATE_COLORS: Partial<Record<string, string>> = { running: 'green', failed: 'red', terminated: 'red', waiting: 'yellow', interrupted: 'yellow' };

/**
 * Session, status, epoch, connection, pending inputs, event count, TTFT; then the thread filter and tree. The two state
 * lines wrap on a narrow terminal (the epoch and connection must stay visible); the thread list is cut.
 */
export function Header({ s }: { s: ViewState }) {
  const conn = connectionText(s.connection, useSecondsUntil(s.retryAt));
  const sep = <Text dimColor> │ </Text>;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{escapeLineControls(s.sessionId)}</Text>
        {s.title ? ` "${escapeLineControls(s.title)}"` : ''}
        {sep}
        <Text color={STATE_COLORS[headerState(s)?.label ?? '']}>{statusText(s)}</Text>
        {sep}epoch {escapeLineControls(s.epoch ?? '?')}
      </Text>
      <Text>
        <Text color={conn.color}>{conn.text}</Text>
        {sep}pending {s.pendingInputs ?? '?'}
        {sep}events {s.eventCount}
        {sep}ttft {s.ttftMs === undefined ? '–' : `${s.ttftMs} ms`}
      </Text>
      {s.threads.length > 0 ? (
        <Text wrap="truncate-end" dimColor>
          showing {escapeLineControls(filterName(s))} │ threads: main → {escapeLineControls(s.threads.map((t) => `${t.name} ${t.status}`).join(', '))}
        </Text>
      ) : null}
    </Box>
  );
}

/** Whole seconds until `at` (Date.now's clock), drawn again each second while there is a time to count down to. */
function useSecondsUntil(at: number | undefined): number | undefined {
  const [, tick] = useState(0);
  useEffect(() => {
    if (at === undefined) return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [at]);
  return at === undefined ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
