import { Text } from 'ink';
import { escapeLineControls } from '../../output/controls';
import { shortAge } from '../../text/duration';
import { queueCounts, type SessionRow } from '../rows';
import { sortName, VIEWS, visibleRows, type BoardState } from '../state';

/** Two lines: what is watched and whether the service answers; then the views, sort and filter. */
export function Header({ s, now }: { s: BoardState; now: number }) {
  const sep = <Text dimColor> │ </Text>;
  const conn = connectionText(s, now);
  const shown = visibleRows(s).length;
  const total = s.view === 'sessions' ? s.sessions.size : s.view === 'work' ? s.work.size : s.triggers.size;
  return (
    <>
      <Text wrap="truncate-end">
        <Text bold>svc top</Text>
        {sep}
        <Text color={conn.color}>{conn.text}</Text>
        {sep}
        {s.view === 'sessions' ? sessionCounts(s) : s.view === 'work' ? workCounts(s, now) : 'triggers'}
        {s.selection ? (
          <>
            {sep}
            {escapeLineControls(s.selection)}
          </>
        ) : null}
      </Text>
      <Text wrap="truncate-end">
        {VIEWS.map((v, i) => (
          <Text key={v} inverse={v === s.view}>
            {` ${i + 1} ${v} `}
          </Text>
        ))}
        {sep}
        {s.loaded[s.view] ? `${shown === total ? total : `${shown} of ${total}`} rows` : 'loading…'}
        {sep}sort: {sortName(s)}
        {s.filtering || s.filter[s.view] ? (
          <>
            {sep}filter: <Text color="cyan">{escapeLineControls(s.filter[s.view])}</Text>
            {s.filtering ? <Text inverse> </Text> : null}
          </>
        ) : null}
        {s.marks.size ? (
          <>
            {sep}
            <Text color="magenta">{s.marks.size} marked</Text>
          </>
        ) : null}
      </Text>
    </>
  );
}

function sessionCounts(s: BoardState): string {
  let running = 0;
  let waiting = 0;
  for (const r of s.sessions.values() as Iterable<SessionRow>) {
    if (r.requiresAction) waiting++;
    else if (r.status === 'running') running++;
  }
  return `sessions: ${s.sessions.size} (${running} running, ${waiting} waiting)`;
}

/** The same counts as `svc work stats` (one function: queueCounts). */
function workCounts(s: BoardState, now: number): string {
  const c = queueCounts(s.work.values(), now);
  const oldest = c.oldestQueuedAt === undefined ? '' : `, oldest queued ${shortAge(now - c.oldestQueuedAt)}`;
  return `work rows of ${escapeLineControls(s.environment?.ref ?? '?')}: ${c.queued} queued, ${c.leased} leased, ${c.stale} stale${oldest}`;
}

/** An error message cut to fit the header beside the rest. */
const short = (m: string) => (m.length > 60 ? `${m.slice(0, 59)}…` : m);

export function connectionText(s: BoardState, now: number): { text: string; color?: string } {
  const c = s.connection;
  switch (c.kind) {
    case 'connecting':
      return { text: 'connecting…', color: 'yellow' };
    case 'live':
      return { text: s.polledAt === undefined ? 'live' : `live, polled ${Math.max(0, Math.round((now - s.polledAt) / 1000))}s ago`, color: 'green' };
    case 'down':
      return {
        text: `${c.unreachable ? 'service unreachable' : 'listing failed'}; retry ${c.attempt} in ${Math.max(0, Math.ceil((c.retryAt - now) / 1000))}s (${escapeLineControls(short(c.message))})`,
        color: 'red',
      };
  }
}
