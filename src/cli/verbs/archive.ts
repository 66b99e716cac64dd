import type { Command } from 'commander';
import type { Ctx } from '../../context';
import { examples, type Kit } from '../action';
import { confirmedWrite, readBack } from './confirm-write';
import { done } from './done';
import { article, type ResourceSpec } from './spec';

/** `svc GROUP archive ID`. */
export interface ArchiveVerbOptions {
  resource: ResourceSpec;
  id: string;
}

export function parseArchive(resource: ResourceSpec, [id]: string[]): ArchiveVerbOptions {
  return { resource, id };
}

export async function runArchive(ctx: Ctx, o: ArchiveVerbOptions): Promise<void> {
  const api = o.resource.api;
  const c = await ctx.api();
  const read = readBack(
    () => api.get(c, o.id),
    (current) => Boolean(current.archived_at),
  );
  await done(ctx, o.id, await confirmedWrite(ctx, c, () => api.archive(c, o.id), read, `${o.resource.noun} ${o.id}`), 'archived');
}

export function addArchive(group: Command, kit: Kit, spec: ResourceSpec, extra: { examples?: string[] } = {}): Command {
  const cmd = group
    .command('archive')
    .argument('<id>', `${spec.noun} ID`)
    .description(`Archive ${article(spec.noun)}`);
  examples(cmd, extra.examples ?? [`svc ${spec.group} archive ID`]);
  return cmd.action(kit.verb((args) => parseArchive(spec, args), runArchive));
}
