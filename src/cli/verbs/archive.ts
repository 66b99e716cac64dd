import type { Command } from 'commander';
import type { Ctx } from '../../runtime/context';
import type { BulkAction } from '../../bulk/execute';
import { examples, type Kit } from '../action';
import { confirmedWrite, readBack } from './confirm-write';
import { done } from './write-result';
import { addManyCommand, withIdOf, isSingleItem, parseMany, runMany, type ManyVerbOptions } from './many';
import { type ResourceSpec } from './spec';

/** `svc GROUP archive ID… | -`: one ID prints the archived object; more (or the bulk flags) go through the bulk engine. */
export type ArchiveVerbOptions = ManyVerbOptions;

export const parseArchive = parseMany;

export async function runArchive(ctx: Ctx, o: ArchiveVerbOptions): Promise<void> {
  if (!isSingleItem(o)) return runMany(ctx, o, archiveAction(o.resource));
  const api = o.resource.api;
  const c = await ctx.api();
  await withIdOf(c, o.resource, o.ids![0], async (id) => {
    const read = readBack(
      () => api.get(c, id),
      (current) => Boolean(current.archived_at),
    );
    await done(ctx, id, await confirmedWrite(ctx, c, () => api.archive(c, id), read, `${o.resource.noun} ${id}`), 'archived');
  });
}

/** Archives one; an already archived one is `unchanged`, never an error. */
export function archiveAction(resource: ResourceSpec): BulkAction {
  return {
    name: 'archive',
    past: 'archived',
    noun: resource.noun,
    ignorableNotFound: true,
    async apply(c, t, named) {
      const current = await withIdOf(c, resource, t.id, (id) => resource.api.get(c, id), named);
      if (current.archived_at) return { unchanged: true };
      await resource.api.archive(c, String(current.id));
      return {};
    },
  };
}

export function addArchive(group: Command, kit: Kit, spec: ResourceSpec, extra: { examples?: string[] } = {}): Command {
  const cmd = addManyCommand(group, spec, 'archive');
  examples(cmd, extra.examples ?? [`svc ${spec.group} archive ID`, `svc ${spec.group} list -q | svc ${spec.group} archive - --yes`]);
  return cmd.action(kit.verb((args, flags) => parseArchive(spec, args, flags), runArchive));
}
