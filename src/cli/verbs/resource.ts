import { Option, type Command } from 'commander';
import type { ApiClient, Query } from '../../api/client';
import type { Crud, Obj } from '../../api/resources';
import type { ListOptions, ListRest } from '../../api/paginate';
import { parseCount } from '../../config/settings';
import type { Ctx } from '../../context';
import { ApiError, NetworkError } from '../../api/errors';
import { UsageError, withNote } from '../../errors';
import { readBody } from '../../input/data';
import type { Column } from '../../output/table';
import { LIMITS } from '../../wire/limits';
import { confirmedWrite, readBack, readDeleted, showsUpdate } from './confirm-write';
import { examples, type Kit, type Opts } from '../action';

/** One resource as the generic verbs see it. */
export interface ResourceSpec {
  group: string;
  noun: string;
  api: Crud;
  columns: Column[];
}

export interface ListFilter {
  flags: string;
  description: string;
  query: string;
  choices?: readonly string[];
  /** Turns the option value into the query value. */
  map?: (v: any) => string | boolean | number;
}

/** The flags every list has: --limit, --page-size, --page-token, --all. */
export function addListFlags(cmd: Command): Command {
  return cmd
    .option('--limit <n>', 'stop after N items')
    .option('--page-size <n>', 'items per request (1..1000)')
    .option('--page-token <token>', 'start from this page token')
    .option('--all', 'follow next_page_token to the end');
}

export function listOptions(opts: Opts): ListOptions {
  return {
    limit: opts.limit === undefined ? undefined : parseCount(opts.limit, '--limit', 1),
    pageSize: opts.pageSize === undefined ? undefined : parseCount(opts.pageSize, '--page-size', LIMITS.pageSizeMin, LIMITS.pageSizeMax),
    pageToken: opts.pageToken,
    all: Boolean(opts.all),
  };
}

export function filterQuery(filters: ListFilter[], opts: Opts): Query {
  const q: Query = {};
  for (const f of filters) {
    const key = new Option(f.flags).attributeName();
    const v = opts[key];
    if (v === undefined) continue;
    if (f.choices && !f.choices.includes(v)) throw new UsageError(`${new Option(f.flags).long} must be one of ${f.choices.join(', ')} (got "${v}")`);
    q[f.query] = f.map ? f.map(v) : v;
  }
  return q;
}

/** `created/updated after/before` flags mapping to the spec's `*_gt` / `*_lt` time filters. */
export const TIME_FILTERS: ListFilter[] = [
  { flags: '--created-after <time>', description: 'created after this RFC 3339 time', query: 'created_at_gt' },
  { flags: '--created-before <time>', description: 'created before this RFC 3339 time', query: 'created_at_lt' },
  { flags: '--updated-after <time>', description: 'updated after this RFC 3339 time', query: 'updated_at_gt' },
  { flags: '--updated-before <time>', description: 'updated before this RFC 3339 time', query: 'updated_at_lt' },
];

export function addList(group: Command, kit: Kit, spec: ResourceSpec, extra: { filters?: ListFilter[]; examples?: string[] } = {}): Command {
  const filters = extra.filters ?? [];
  const cmd = group.command('list').description(`List ${spec.group}`);
  for (const f of filters) cmd.addOption(f.choices ? new Option(f.flags, f.description).choices(f.choices) : new Option(f.flags, f.description));
  addListFlags(cmd);
  examples(cmd, extra.examples ?? [`svc ${spec.group} list`, `svc ${spec.group} list --all -o ndjson`]);
  return cmd.action(
    kit.action(async (ctx, _args, opts) => {
      const query = filterQuery(filters, opts);
      const c = await ctx.api();
      await printList(ctx, listOptions(opts), (lo) => spec.api.list(c, query, lo), spec.columns);
    }),
  );
}

/** Each item of a listing passed through `f` as it streams (a secret dropped before printing). */
export async function* mapAsync<T, U>(items: AsyncIterable<T>, f: (t: T) => U): AsyncGenerator<U> {
  for await (const t of items) yield f(t);
}

/** A list under a parent (`agents versions AGENT`, `threads list SESSION`): the list flags, examples, one call. */
export function addChildList(
  group: Command,
  kit: Kit,
  o: {
    name: string;
    parent: { arg: string; description: string };
    description: string;
    columns: Column[];
    examples: string[];
    items: (ctx: Ctx, parentId: string, lo: ListOptions) => Promise<AsyncIterable<unknown>>;
  },
): Command {
  const cmd = group.command(o.name).argument(o.parent.arg, o.parent.description).description(o.description);
  addListFlags(cmd);
  examples(cmd, o.examples);
  return cmd.action(kit.action((ctx, [parentId], opts) => printList(ctx, listOptions(opts), (lo) => o.items(ctx, parentId, lo), o.columns)));
}

/**
 * Prints a listing; when it stopped with items left (one page, or --limit) and stderr is a terminal, one stderr line
 * after it says how many were shown and how to get the rest.
 */
export async function printList(
  ctx: Ctx,
  lo: ListOptions,
  items: (lo: ListOptions) => AsyncIterable<unknown> | Promise<AsyncIterable<unknown>>,
  columns: Column[],
): Promise<void> {
  let rest: ListRest | undefined;
  await ctx.out.list(await items({ ...lo, onRest: (r) => (rest = r) }), columns);
  if (!rest || !ctx.io.stderr.isTTY) return;
  const next = rest.nextPageToken === undefined ? '' : `, or --page-token ${rest.nextPageToken} for the next page`;
  await ctx.msg(`${rest.shown} shown, more remain: --all lists every one${next}`);
}

export function addGet(group: Command, kit: Kit, spec: ResourceSpec, extra: { examples?: string[] } = {}): Command {
  const cmd = group.command('get').argument('<id>', `${spec.noun} ID`).description(`Show one ${spec.noun}`);
  examples(cmd, extra.examples ?? [`svc ${spec.group} get ID`, `svc ${spec.group} get ID -o json --jq .name`]);
  return cmd.action(
    kit.action(async (ctx, [id], opts) => {
      const q: Query = opts.version !== undefined ? { version: opts.version } : {};
      await ctx.out.item(await spec.api.get(await ctx.api(), id, q), spec.columns);
    }),
  );
}

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
  shape?: (body: Record<string, unknown>, opts: Opts) => Record<string, unknown>;
  /** Throws UsageError for what the client can tell is wrong before any request. */
  check?: (body: Record<string, unknown>) => void;
  examples?: string[];
}

function addBodyFlags(cmd: Command, verb: BodyVerb): Command {
  cmd.option('--data <json|@file|@->', 'request body as JSON or YAML, inline, from a file, or - for stdin');
  for (const f of verb.flags ?? []) cmd.option(f.flags, f.description);
  verb.addFlags?.(cmd);
  return cmd;
}

async function verbBody(ctx: Ctx, opts: Opts, verb: BodyVerb): Promise<Record<string, unknown>> {
  const body = await bodyFrom(ctx, opts, verb.flags ?? []);
  const shaped = verb.shape ? verb.shape(body, opts) : body;
  verb.check?.(shaped);
  return shaped;
}

export async function bodyFrom(ctx: Ctx, opts: Opts, flags: BodyFlag[]): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  for (const f of flags) {
    const v = opts[new Option(f.flags).attributeName()];
    if (v !== undefined) values[f.field] = f.parse ? f.parse(v) : v;
  }
  return readBody(opts.data, values, ctx.io.stdin, ctx.io.cwd, ctx.io.signal);
}

/** `--idempotency-key` on every verb that creates (CLI.md "HTTP behaviour"); read back with idempotencyKey. */
export function addIdempotencyOption(cmd: Command, description = 'Idempotency-Key to send (default: a fresh UUID)'): Command {
  return cmd.option('--idempotency-key <key>', description);
}

/** The Idempotency-Key of one create intent: `--idempotency-key`, else a fresh UUID kept across retries. */
export function idempotencyKey(opts: Opts): string {
  // globalThis.crypto loads node's crypto only when a key is made, not on every read command's start-up.
  const k: string = opts.idempotencyKey ?? globalThis.crypto.randomUUID();
  if (Buffer.byteLength(k) > LIMITS.idempotencyKeyBytes) throw new UsageError(`--idempotency-key is over ${LIMITS.idempotencyKeyBytes} bytes`);
  return k;
}

export function addCreate(group: Command, kit: Kit, spec: ResourceSpec, extra: BodyVerb & { required?: string[] } = {}): Command {
  const flags = extra.flags ?? [];
  const cmd = addIdempotencyOption(addBodyFlags(group.command('create').description(`Create ${article(spec.noun)}`), extra));
  examples(cmd, extra.examples ?? [`svc ${spec.group} create --data @${spec.noun}.yaml`]);
  return cmd.action(
    kit.action(async (ctx, _args, opts) => {
      const body = await verbBody(ctx, opts, extra);
      for (const r of extra.required ?? []) {
        if (body[r] !== undefined) continue;
        const flag = flags.find((f) => f.field === r);
        throw new UsageError(`${spec.noun} ${r} is required (${flag ? new Option(flag.flags).long : `--${r.replace(/_/g, '-')}`} or --data)`);
      }
      const key = idempotencyKey(opts);
      const created = await unknownOutcome(spec.api.create(await ctx.api(), body, key), `svc ${spec.group} list`, key);
      await ctx.out.item(created, spec.columns);
    }),
  );
}

/**
 * A create that failed with no answer or a 5xx may still have been applied (R-IDEM-15, R-ERR-19): the error
 * line says how to check, and how to replay the same intent with its key rather than create twice.
 */
export async function unknownOutcome<T>(write: Promise<T>, check: string, key: string): Promise<T> {
  try {
    return await write;
  } catch (e) {
    if (e instanceof NetworkError || (e instanceof ApiError && e.status >= 500)) {
      throw withNote(e, `it may have been applied: check with \`${check}\`, or run again with --idempotency-key ${key} to replay it instead of creating twice`);
    }
    throw e;
  }
}

/** `send` turns one update into its requests (default: one PATCH) and returns the final object. */
export function addUpdate(
  group: Command,
  kit: Kit,
  spec: ResourceSpec,
  extra: BodyVerb & { send?: (c: ApiClient, id: string, body: Record<string, unknown>) => Promise<Obj> } = {},
): Command {
  const cmd = addBodyFlags(
    group
      .command('update')
      .argument('<id>', `${spec.noun} ID`)
      .description(`Update ${article(spec.noun)} (PATCH: only the fields given change)`),
    extra,
  );
  examples(cmd, extra.examples ?? [`svc ${spec.group} update ID --data '{"description":"new"}'`]);
  return cmd.action(
    kit.action(async (ctx, [id], opts) => {
      const body = await verbBody(ctx, opts, extra);
      if (Object.keys(body).length === 0) throw new UsageError('nothing to update: give --data or a field flag');
      const c = await ctx.api();
      const update = () => (extra.send ? extra.send(c, id, body) : spec.api.update(c, id, body));
      const read = readBack(
        () => spec.api.get(c, id),
        (current) => showsUpdate(body, current),
      );
      await ctx.out.item(await confirmedWrite(ctx, c, update, read, `${spec.noun} ${id}`), spec.columns);
    }),
  );
}

export function addDelete(group: Command, kit: Kit, spec: ResourceSpec, extra: { examples?: string[] } = {}): Command {
  const cmd = group
    .command('delete')
    .argument('<id>', `${spec.noun} ID`)
    .description(`Delete ${article(spec.noun)}`);
  examples(cmd, extra.examples ?? [`svc ${spec.group} delete ID`]);
  return cmd.action(
    kit.action(async (ctx, [id]) => {
      const c = await ctx.api();
      const deleted = await confirmedWrite(
        ctx,
        c,
        () => spec.api.delete(c, id),
        () => readDeleted(() => spec.api.get(c, id)),
        `${spec.noun} ${id}`,
      );
      await done(ctx, id, deleted, 'deleted');
    }),
  );
}

export function addArchive(group: Command, kit: Kit, spec: ResourceSpec, extra: { examples?: string[] } = {}): Command {
  const cmd = group
    .command('archive')
    .argument('<id>', `${spec.noun} ID`)
    .description(`Archive ${article(spec.noun)}`);
  examples(cmd, extra.examples ?? [`svc ${spec.group} archive ID`]);
  return cmd.action(
    kit.action(async (ctx, [id]) => {
      const c = await ctx.api();
      const read = readBack(
        () => spec.api.get(c, id),
        (current) => Boolean(current.archived_at),
      );
      await done(ctx, id, await confirmedWrite(ctx, c, () => spec.api.archive(c, id), read, `${spec.noun} ${id}`), 'archived');
    }),
  );
}

/**
 * Prints the returned object, or for an empty 204 `{id, <verb>: true}` so scripts see a result. A table shows
 * `deleted ID` for a bare marker too: `{id, deleted: true}`, or the public API's `{id, type: "<x>_deleted"}`.
 */
export async function done(ctx: Ctx, id: string, obj: Obj | undefined, verb: string): Promise<void> {
  if (obj && !(ctx.format === 'table' && isMarker(obj, verb))) return ctx.out.item(obj);
  if (ctx.format === 'table') return ctx.msg(`${verb} ${id}`);
  return ctx.out.item({ id, [verb]: true });
}

function isMarker(obj: Obj, verb: string): boolean {
  return obj[verb] === true || (typeof obj.type === 'string' && obj.type.endsWith(`_${verb}`));
}

export function article(noun: string): string {
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}
