import type { Command } from 'commander';
import type { ApiClient } from '../../api/client';
import type { Obj } from '../../api/resources';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { examples, type Flags, type Kit } from '../action';
import { addFlags } from '../flags';
import {
  addBodyFlags,
  metadataFlags,
  parseBody,
  parseMetadataFlags,
  readVerbBody,
  resolveRefs,
  type BodyInput,
  type BodyVerb,
  type MetadataEdit,
} from './body';
import { confirmedWrite, readBack, showsUpdate } from './confirm-write';
import { article, pickSource, type ResourceSpec } from './spec';
import { pickable } from '../pick-arg';
import { withIdOf } from './many';
import { editPatch } from '../../wire/metadata';

/** Turns one update into its requests (default: one PATCH) and returns the final object. */
export type SendUpdate = (c: ApiClient, id: string, body: Record<string, unknown>) => Promise<Obj>;

export type UpdateExtra = BodyVerb & { send?: SendUpdate };

/** `svc GROUP update ID`: a PATCH of only the members given. */
export interface UpdateVerbOptions {
  resource: ResourceSpec;
  id: string;
  body: BodyInput;
  verb: BodyVerb;
  send?: SendUpdate;
  /** `--metadata KEY=VALUE` / `KEY-`: the changed keys alone, on top of the metadata of --data (src/wire/metadata.ts). */
  metadata?: MetadataEdit;
}

export function parseUpdate(resource: ResourceSpec, [id]: string[], flags: Flags, extra: UpdateExtra = {}): UpdateVerbOptions {
  const metadata = parseMetadataFlags(flags.metadata, true);
  return { resource, id, body: parseBody(flags, extra.flags), verb: extra, send: extra.send, ...(metadata ? { metadata } : {}) };
}

export async function runUpdate(ctx: Ctx, o: UpdateVerbOptions): Promise<void> {
  const read = await readVerbBody(ctx, o.body, o.verb);
  if (Object.keys(read).length === 0 && !o.metadata)
    throw new UsageError(`nothing to update: give --data or a field flag${o.resource.api.entry.metadata ? ' or --metadata' : ''}`);
  const given = await resolveRefs(ctx, read, o.verb.refs);
  const api = o.resource.api;
  const c = await ctx.api();
  const written = await withIdOf(c, o.resource, o.id, async (id) => {
    const body = o.metadata ? { ...given, metadata: editPatch(given.metadata, o.metadata.set, o.metadata.remove) } : given;
    const update = () => (o.send ? o.send(c, id, body) : api.update(c, id, body));
    const read = readBack(
      () => api.get(c, id),
      (current) => showsUpdate(body, current),
    );
    return confirmedWrite(ctx, c, update, read, `${o.resource.noun} ${id}`);
  });
  await ctx.out.item(written, o.resource.columns);
}

export function addUpdate(group: Command, kit: Kit, spec: ResourceSpec, extra: UpdateExtra = {}): Command {
  const cmd = addBodyFlags(
    pickable(
      group
        .command('update')
        .argument('<id>', `${spec.noun} ID`)
        .description(`Update ${article(spec.noun)} (PATCH: only the fields given change)`),
      pickSource(spec),
    ),
    extra,
  );
  if (spec.api.entry.metadata) addFlags(cmd, metadataFlags(true));
  examples(cmd, extra.examples ?? [`svc ${spec.group} update ID --data '{"description":"new"}'`]);
  return cmd.action(kit.verb((args, flags) => parseUpdate(spec, args, flags, extra), runUpdate));
}
