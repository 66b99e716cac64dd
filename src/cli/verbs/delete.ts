import type { Command } from 'commander';
import type { Ctx } from '../../runtime/context';
import type { BulkAction } from '../../bulk/execute';
import { examples, type Kit } from '../action';
import { confirmedWrite, readDeleted } from './confirm-write';
import { done } from './write-result';
import { addManyCommand, withIdOf, isSingleItem, parseMany, runMany, type ManyVerbOptions } from './many';
import { type ResourceSpec } from './spec';

/** `svc GROUP delete ID… | -`: one ID as before; more (or the bulk flags) go through the bulk engine. */
export type DeleteVerbOptions = ManyVerbOptions;

export const parseDelete = parseMany;

export async function runDelete(ctx: Ctx, o: DeleteVerbOptions): Promise<void> {
  if (!isSingleItem(o)) return runMany(ctx, o, deleteAction(o.resource));
  const api = o.resource.api;
  const c = await ctx.api();
  const ref = o.ids![0];
  await withIdOf(c, o.resource, ref, async (id) => {
    const deleted = await confirmedWrite(
      ctx,
      c,
      () => api.delete(c, id),
      () => readDeleted(() => api.get(c, id)),
      `${o.resource.noun} ${id}`,
    );
    await done(ctx, id, deleted, 'deleted', id === ref ? undefined : ref);
  });
}

export function deleteAction(resource: ResourceSpec): BulkAction {
  return {
    name: 'delete',
    past: 'deleted',
    noun: resource.noun,
    ignorableNotFound: true,
    async apply(c, t, named) {
      await withIdOf(c, resource, t.id, (id) => resource.api.delete(c, id), named);
      return {};
    },
  };
}

export function addDelete(group: Command, kit: Kit, spec: ResourceSpec, extra: { examples?: string[] } = {}): Command {
  const cmd = addManyCommand(group, spec, 'delete');
  examples(cmd, extra.examples ?? [`svc ${spec.group} delete ID`]);
  return cmd.action(kit.verb((args, flags) => parseDelete(spec, args, flags), runDelete));
}
