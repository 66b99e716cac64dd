import { Box, Text } from 'ink';
import type { ConnectionState } from '../../api/stream/types';
import { filterName, type ViewState } from '../reducer';
import { escapeLineControls } from '../../output/controls';

export function connectionText(c: ConnectionState): { text: string; color: string } {
  switch (c.kind) {
    case 'live':
      return { text: 'live', color: 'green' };
    case 'reconnecting':
      return { text: `reconnecting (attempt ${c.attempt})`, color: 'yellow' };
    case 'backfilling':
      return { text: 'backfilling', color: 'yellow' };
    case 'connecting':
      return { text: 'connecting', color: 'yellow' };
    case 'closed':
      return { text: 'closed', color: 'red' };
  }
}

export function statusText(s: ViewState): string {
  const flags = [s.stopping && 'stopping', s.interrupted && 'interrupted', s.continuePending && 'continue pending'].filter(Boolean);
  const reason = s.status === 'idle' && s.stopReason?.type && s.stopReason.type !== 'interrupted' ? ` (${s.stopReason.type})` : '';
  return escapeLineControls([s.status + reason, ...flags].join(', '));
}

/**
 * Session, status, epoch, connection, pending inputs, event count, TTFT; then the thread filter and tree. The two state
 * lines wrap on a narrow terminal (the epoch and connection must stay visible); the thread list is cut.
 */
export function Header({ s }: { s: ViewState }) {
  const conn = connectionText(s.connection);
  const sep = <Text dimColor> │ </Text>;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{escapeLineControls(s.sessionId)}</Text>
        {s.title ? ` "${escapeLineControls(s.title)}"` : ''}
        {sep}
        <Text color={s.status === 'running' ? 'green' : s.status === 'terminated' ? 'red' : undefined}>{statusText(s)}</Text>
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
