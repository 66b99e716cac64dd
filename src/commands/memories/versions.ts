import { memories, memoryStores } from '../../api/memory';
import type { Ctx } from '../../runtime/context';
import { flagTable, type FlagsOf } from '../../cli/flags';
import { LIST_FLAGS, listOptions, sortedBy, type ListPage } from '../../cli/verbs/resource';
import { inParent, listInParent } from '../../cli/verbs/parent';
import { forDisplay, VERSION_COLUMNS } from './columns';

/** `memories versions STORE MEMORY [VERSION]` with the list flags (read only for the history). */
export type VersionsOptions = { store: string; memory: string } & ({ version: string } | { version?: undefined; list: ListPage });

/** `svc memories versions`'s flags: the list flags, read only for the history. */
export const MEMORY_VERSIONS_FLAGS = flagTable({ ...LIST_FLAGS });

export const parseVersions = ([store, memory, version]: string[], flags: FlagsOf<typeof MEMORY_VERSIONS_FLAGS>): VersionsOptions =>
  version === undefined ? { store, memory, list: listOptions(flags) } : { store, memory, version };

/** The history newest first, or one version. */
export async function runVersions(ctx: Ctx, o: VersionsOptions): Promise<void> {
  const { store, memory, version } = o;
  const c = await ctx.api();
  if (version === undefined)
    return ctx.out.list(await sortedBy(await listInParent(c, memoryStores, store, (id) => memories.versions(c, id, memory, o.list)), o.list), VERSION_COLUMNS);
  const v = await inParent(c, memoryStores, store, (id) => memories.version(c, id, memory, version));
  await ctx.out.item(forDisplay(ctx.format, ctx.settings.jq, v), VERSION_COLUMNS);
}
