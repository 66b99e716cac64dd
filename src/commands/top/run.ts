/** `svc top` on a terminal: the board (src/top/), with the writes done by the bulk executor. */
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import type { TopOptions } from './parse';

export async function runTop(ctx: Ctx, o: TopOptions): Promise<void> {
  if (!ctx.io.stdout.isTTY) throw new UsageError('svc top needs a terminal; off one, use `svc sessions list --watch` (NDJSON changes)');
  // No credential is exit 4 before the screen is taken.
  ctx.apiKey();
  const [{ openBoard }, { boardWrites }] = await Promise.all([import('../../top/open'), import('./writes')]);
  await openBoard({ ctx, client: await ctx.api(), writes: boardWrites(ctx), ...o });
}
