/** The live view's state and connection in words: the header shows them, accessible mode writes each change as a line. */
import type { ConnectionState } from '../api/stream/types';
import { escapeLineControls } from '../output/controls';
import { sessionState, stateText, type SessionState } from '../session/state';
import type { ViewState } from './reducer';

/** `retryInS`: seconds to the next attempt while reconnecting. */
export function connectionText(c: ConnectionState, retryInS?: number): { text: string; color: string } {
  switch (c.kind) {
    case 'live':
      return { text: 'live', color: 'green' };
    case 'reconnecting':
      return { text: `reconnecting (attempt ${c.attempt}${retryInS === undefined ? '' : `, next try in ${retryInS}s`})`, color: 'yellow' };
    case 'backfilling':
      return { text: 'backfilling', color: 'yellow' };
    case 'connecting':
      return { text: 'connecting', color: 'yellow' };
    case 'closed':
      return { text: 'closed', color: 'red' };
  }
}

/** The session's derived state (src/session/state.ts), the words every view shows; `unknown` until the first read. */
export function headerState(
  s: Pick<ViewState, 'status' | 'stopReason' | 'interrupted' | 'stopping' | 'continuePending' | 'pendingInputs'> & { archivedAt?: string },
): SessionState | undefined {
  if (s.status === 'unknown') return undefined;
  const session = {
    status: s.status,
    stop_reason: s.stopReason,
    interrupted: s.interrupted,
    stopping: s.stopping,
    continue_pending: s.continuePending,
    archived_at: s.archivedAt,
  };
  return sessionState(session, { pendingInputs: s.pendingInputs });
}

export function statusText(s: Parameters<typeof headerState>[0]): string {
  const st = headerState(s);
  return escapeLineControls(st ? stateText(st) : s.status);
}
