import type { ApiClient } from '../api/client';
import type { Ctx } from '../context';

export interface LiveViewOptions {
  ctx: Ctx;
  client: ApiClient;
  sessionId: string;
  threadId?: string;
  /** As FollowOptions.cursor. */
  cursor?: string;
  /** Show delta previews from the start (`d` toggles). */
  deltas: boolean;
  /** Leave the view by itself when the session goes idle (`run`). */
  untilIdle?: boolean;
}

export interface LiveViewResult {
  /** `quit`: the user left (q / Ctrl-C); `idle`, `error`, `terminated`: how the session ended (untilIdle). */
  reason: 'quit' | 'idle' | 'error' | 'terminated';
}

/** Opens the Ink live view on the TTY (placeholder until the live view lands). */
export async function openLiveView(_opts: LiveViewOptions): Promise<LiveViewResult> {
  throw new Error('the live view is not built yet');
}
