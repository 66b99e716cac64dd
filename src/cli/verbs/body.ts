import { Option, type Command } from 'commander';
import type { Crud } from '../../api/resources';
import type { Ctx } from '../../context';
import { resolveId } from '../../fleet/names';
import { readBody } from '../../input/data';
import type { Flags } from '../action';

/** A body-taking verb's flags: `--data` and the common fields. */
export interface BodyFlag {
  flags: string;
  description: string;
  field: string;
  parse?: (v: string) => unknown;
}

/**
 * What a body-taking verb (create, update) may add to `--data` and the one-field flags: flags that build a
 * nested member (`config`, `schedule`), a shaping step that merges them in, and client-side checks.
 */
export interface BodyVerb {
  flags?: BodyFlag[];
  /** Adds the composite flags. */
  addFlags?: (cmd: Command) => Command;
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

export function addBodyFlags(cmd: Command, verb: BodyVerb): Command {
  cmd.option('--data <json|@file|@->', 'request body as JSON or YAML, inline, from a file, or - for stdin');
  for (const f of verb.flags ?? []) cmd.option(f.flags, f.description);
  verb.addFlags?.(cmd);
  return cmd;
}

/** The parse step of a body: the field flags' values parsed (a bad one is exit 2), `--data` kept to read later. */
export function parseBody(flags: Flags, fieldFlags: BodyFlag[] = []): BodyInput {
  const fields: Record<string, unknown> = {};
  for (const f of fieldFlags) {
    const v = flags[new Option(f.flags).attributeName()];
    if (v !== undefined) fields[f.field] = f.parse ? f.parse(v as string) : v;
  }
  return { data: flags.data as string | undefined, fields, flags };
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
