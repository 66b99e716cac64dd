import type { Command } from 'commander';
import type { Crud } from '../../api/resources';
import type { Ctx } from '../../runtime/context';
import { resolveId } from '../../selection/names';
import { readBody } from '../../input/data';
import type { Flags } from '../action';
import { addFlags, flagName, flagTable, type FlagSpec, type FlagTable } from '../flags';
import { UsageError } from '../../runtime/errors';
import { isObject } from '../../wire/is-object';

/** A one-field flag of a body-taking verb: declared from this entry, its value sent as the body member `field`. */
export interface BodyFlag extends FlagSpec {
  field: string;
  parse?: (v: string) => unknown;
}

/**
 * What a body-taking verb (create, update) may add to `--data` and the one-field flags: flags that build a
 * nested member (`config`, `schedule`), a shaping step that merges them in, and client-side checks.
 */
export interface BodyVerb {
  flags?: BodyFlag[];
  /** The composite flags (`config`, `schedule`), which `shape` reads. */
  composite?: FlagTable;
  /** Merges the composite flags into the body read from --data and the simple flags. */
  shape?: (body: Record<string, unknown>, flags: Flags) => Record<string, unknown>;
  /** Throws UsageError for what the client can tell is wrong before any request. */
  check?: (body: Record<string, unknown>) => void;
  /** Members holding the ID of a resource with names (`agent_id`): a name is accepted there too, the ID tried first. */
  refs?: NameRef[];
  examples?: string[];
}

export interface NameRef {
  field: string;
  noun: string;
  api: Pick<Crud, 'get' | 'list'>;
}

/** Each reference member given as a name replaced by that resource's ID (one read each; a name costs a list too). */
export async function resolveRefs(ctx: Ctx, body: Record<string, unknown>, refs: NameRef[] = []): Promise<Record<string, unknown>> {
  const given = refs.filter((r) => typeof body[r.field] === 'string' && body[r.field] !== '');
  if (!given.length) return body;
  const c = await ctx.api();
  const out = { ...body };
  for (const r of given) out[r.field] = await resolveId(c, r.api, r.noun, String(body[r.field]));
  return out;
}

/** The body of a create or update as its flags give it: `--data` (read when the verb runs) and the field flags. */
export interface BodyInput {
  /** `--data`: JSON or YAML inline, `@file` or `@-`. */
  data?: string;
  /** The one-field flags given, by body member, already parsed. */
  fields: Record<string, unknown>;
  /** Every flag, for the composite flags' shaping step. */
  flags: Flags;
}

/** `--data`, on every verb that takes a body. */
export const DATA_FLAGS = flagTable({
  data: { flags: '--data <json|@file|@->', description: 'request body as JSON or YAML, inline, from a file, or - for stdin' },
});

export function addBodyFlags(cmd: Command, verb: BodyVerb): Command {
  addFlags(cmd, DATA_FLAGS);
  addFlags(cmd, verb.flags ?? []);
  return addFlags(cmd, verb.composite ?? {});
}

/** The parse step of a body: the field flags' values parsed (a bad one is exit 2), `--data` kept to read later. */
export function parseBody(flags: Flags & { readonly data?: string }, fieldFlags: BodyFlag[] = []): BodyInput {
  const fields: Record<string, unknown> = {};
  for (const f of fieldFlags) {
    const v = flags[flagName(f)];
    if (v !== undefined) fields[f.field] = f.parse ? f.parse(v as string) : v;
  }
  return { data: flags.data, fields, flags };
}

/** Reads `--data` and merges the field flags over it, then the verb's shaping and checks: all before any request. */
export async function readVerbBody(ctx: Ctx, input: BodyInput, verb: BodyVerb = {}): Promise<Record<string, unknown>> {
  const body = await readBody(input.data, input.fields, ctx.io.stdin, ctx.io.cwd, ctx.io.signal);
  const shaped = verb.shape ? verb.shape(body, input.flags) : body;
  verb.check?.(shaped);
  return shaped;
}

/** `--data` and the field flags merged, without a verb's shaping (verbs of their own that take a body). */
export async function bodyFrom(ctx: Ctx, flags: Flags, fieldFlags: BodyFlag[]): Promise<Record<string, unknown>> {
  return readVerbBody(ctx, parseBody(flags, fieldFlags));
}

/** `--metadata KEY=VALUE` (repeatable; `KEY-` removes on update), checked before any request. */
export interface MetadataEdit {
  set: Record<string, string>;
  remove: string[];
}

/** `--metadata`, repeatable: on a create, the new one's keys; on an update, a patch of them. */
export const metadataFlags = (update: boolean) =>
  flagTable({
    metadata: {
      flags: '--metadata <key=value>',
      description: update ? 'set a metadata key (repeatable; KEY- removes KEY; the other keys are kept)' : 'a metadata key of the new one (repeatable)',
      repeat: true,
    },
  });

/**
 * The `--metadata` pairs: `KEY=VALUE` (the value may hold `=` or be empty), and on update `KEY-` to remove KEY. No
 * `=`, an empty key, or one key both set and removed is exit 2. The spec states no limit on keys or values, so svc
 * checks none: the service answers for its own.
 */
export function parseMetadataFlags(values: unknown, update: boolean): MetadataEdit | undefined {
  if (!Array.isArray(values) || values.length === 0) return undefined;
  const edit: MetadataEdit = { set: Object.create(null) as Record<string, string>, remove: [] };
  for (const v of values as string[]) {
    const at = v.indexOf('=');
    if (at === -1 && update && v.length > 1 && v.endsWith('-')) {
      edit.remove.push(v.slice(0, -1));
      continue;
    }
    if (at === -1) throw new UsageError(`--metadata takes KEY=VALUE${update ? ' or KEY- (to remove KEY)' : ''} (got "${v}")`);
    if (at === 0) throw new UsageError(`--metadata "${v}" has an empty key: give KEY=VALUE`);
    edit.set[v.slice(0, at)] = v.slice(at + 1);
  }
  const both = edit.remove.find((k) => Object.hasOwn(edit.set, k));
  if (both !== undefined) throw new UsageError(`--metadata both sets and removes "${both}": give one`);
  return edit;
}

/** `base` (the metadata of --data) with the edit applied: the map a create sends (an update sends a patch: src/wire/metadata.ts). */
export function editMetadata(base: unknown, edit: MetadataEdit): Record<string, string> {
  const out: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, isObject(base) ? base : {}, edit.set);
  for (const k of edit.remove) delete out[k];
  return { ...out };
}
