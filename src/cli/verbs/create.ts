import type { Command } from 'commander';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { examples, type Flags, type Kit } from '../action';
import { addFlags } from '../flags';
import {
  addBodyFlags,
  metadataFlags,
  editMetadata,
  parseBody,
  parseMetadataFlags,
  readVerbBody,
  resolveRefs,
  type BodyInput,
  type BodyVerb,
  type MetadataEdit,
} from './body';
import { idempotencyFlags, idempotencyKey, unknownOutcome } from './idempotency';
import { article, flagName, type ResourceSpec } from './spec';

/** `svc GROUP create`: the body's flags, the members it must have, and the intent's Idempotency-Key. */
export interface CreateVerbOptions {
  resource: ResourceSpec;
  body: BodyInput;
  verb: BodyVerb;
  /** Members the body must have, each with the flag that sets it. */
  required: { field: string; flag: string }[];
  idempotencyKey: string;
  /** `--metadata KEY=VALUE`, merged over the metadata of --data. */
  metadata?: MetadataEdit;
}

export type CreateExtra = BodyVerb & { required?: string[] };

export function parseCreate(resource: ResourceSpec, flags: Flags, extra: CreateExtra = {}): CreateVerbOptions {
  const required = (extra.required ?? []).map((field) => {
    const flag = extra.flags?.find((f) => f.field === field);
    return { field, flag: flag ? flagName(flag.flags) : `--${field.replace(/_/g, '-')}` };
  });
  const metadata = parseMetadataFlags(flags.metadata, false);
  return { resource, body: parseBody(flags, extra.flags), verb: extra, required, idempotencyKey: idempotencyKey(flags), ...(metadata ? { metadata } : {}) };
}

export async function runCreate(ctx: Ctx, o: CreateVerbOptions): Promise<void> {
  const read = await readVerbBody(ctx, o.body, o.verb);
  const body = o.metadata ? { ...read, metadata: editMetadata(read.metadata, o.metadata) } : read;
  const missing = o.required.find((r) => body[r.field] === undefined);
  if (missing) throw new UsageError(`${o.resource.noun} ${missing.field} is required (${missing.flag} or --data)`);
  const sent = await resolveRefs(ctx, body, o.verb.refs);
  const created = await unknownOutcome(o.resource.api.create(await ctx.api(), sent, o.idempotencyKey), `svc ${o.resource.group} list`, o.idempotencyKey);
  await ctx.out.item(created, o.resource.columns);
}

export function addCreate(group: Command, kit: Kit, spec: ResourceSpec, extra: CreateExtra = {}): Command {
  const cmd = addFlags(addBodyFlags(group.command('create').description(`Create ${article(spec.noun)}`), extra), idempotencyFlags());
  if (spec.api.entry.metadata) addFlags(cmd, metadataFlags(false));
  examples(cmd, extra.examples ?? [`svc ${spec.group} create --data @${spec.noun}.yaml`]);
  return cmd.action(kit.verb((_args, flags) => parseCreate(spec, flags, extra), runCreate));
}
