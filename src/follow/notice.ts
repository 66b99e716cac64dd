import type { ConnectionState } from '../api/stream/types';
import type { Ctx } from '../runtime/context';

/** Reconnects and backfills are never silent (docs/behaviour.md "HTTP behaviour"): one stderr line each. */
export function notice(ctx: Ctx, s: ConnectionState): Promise<void> | void {
  if (s.kind === 'reconnecting') return ctx.msg(`reconnecting (attempt ${s.attempt}): ${s.reason}`);
  if (s.kind === 'backfilling') return ctx.msg('the stream cursor expired: backfilling missed events from history');
}
