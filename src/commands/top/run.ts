/** `svc top` on a terminal: the board (src/top/), with the writes done by the bulk executor. */
import type { Ctx } from '../../runtime/context';
import { refuseDebugOnScreen } from '../../cli/screen';
import { UsageError } from '../../runtime/errors';
import type { TopOptions } from './parse';

export async function runTop(ctx: Ctx, o: TopOptions): Promise<void> {
  if (!ctx.io.stdout.isTTY) throw new UsageError('svc top needs a terminal; off one, use `svc sessions list --watch` (NDJSON changes)');
  // Honest flags: the board has no output format to honour.
  const { output, quiet, jq } = ctx.globals;
  if (output !== undefined || quiet || jq !== undefined)
    throw new UsageError('svc top draws a board: -o, -q and --jq do not apply (for changes as JSON: svc sessions list --watch -o ndjson)');
  refuseDebugOnScreen(ctx, 'board', 'send it to a file (svc top --debug 2>debug.log)');
  // No credential is exit 4 before the screen is taken.
  ctx.apiKey();
  const [{ openBoard }, { boardWrites }, { resolveId }, { environments }] = await Promise.all([
    import('../../top/open'),
    import('./writes'),
    import('../../selection/names'),
    import('../../api/environments'),
  ]);
  const client = await ctx.api();
  // A missing environment is the 404 naming it (exit 6) before the screen is taken, as for any other argument:
  // a board that opened on it would only say "loading…" in a view the user may never look at.
  const environmentId = o.environment === undefined ? undefined : await resolveId(client, environments, 'environment', o.environment);
  await openBoard({ ctx, client, writes: boardWrites(ctx), ...o, environmentId });
}
