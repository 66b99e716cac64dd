import type { Command } from 'commander';
import type { Ctx } from '../../context';
import { examples, type Kit } from '../action';
import { confirmedWrite, readDeleted } from './confirm-write';
import { done } from './done';
import { article, type ResourceSpec } from './spec';

/** `svc GROUP delete ID`. */
export interface DeleteVerbOptions {
  resource: ResourceSpec;
  id: string;
}

export function parseDelete(resource: ResourceSpec, [id]: string[]): DeleteVerbOptions {
  return { resource, id };
}

export async function runDelete(ctx: Ctx, o: DeleteVerbOptions): Promise<void> {
  const api = o.resource.api;
  const c = await ctx.api();
  const deleted = await confirmedWrite(
    ctx,
    c,
    () => api.delete(c, o.id),
    () => readDeleted(() => api.get(c, o.id)),
    `${o.resource.noun} ${o.id}`,
  );
  await done(ctx, o.id, deleted, 'deleted');
}

export function addDelete(group: Command, kit: Kit, spec: ResourceSpec, extra: { examples?: string[] } = {}): Command {
  const cmd = group
    .command('delete')
    .argument('<id>', `${spec.noun} ID`)
    .description(`Delete ${article(spec.noun)}`);
  examples(cmd, extra.examples ?? [`svc ${spec.group} delete ID`]);
  return cmd.action(kit.verb((args) => parseDelete(spec, args), runDelete));
}
