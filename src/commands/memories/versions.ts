import { memories } from '../../api/memory';
import type { Ctx } from '../../context';
import type { Opts } from '../../cli/action';
import { listOptions } from '../../cli/verbs/resource';
import { forDisplay, VERSION_COLUMNS } from './columns';

/** `memories versions STORE MEMORY [VERSION]`: the history newest first, or one version. */
export async function runVersions(ctx: Ctx, [store, memory, version]: string[], opts: Opts): Promise<void> {
  if (version === undefined) {
    const lo = listOptions(opts);
    return ctx.out.list(memories.versions(await ctx.api(), store, memory, lo), VERSION_COLUMNS);
  }
  const v = await memories.version(await ctx.api(), store, memory, version);
  await ctx.out.item(forDisplay(ctx.format, ctx.settings.jq, v), VERSION_COLUMNS);
}
