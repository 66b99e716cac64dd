import type { Command } from 'commander';
import type { ApiClient } from '../api/client';
import type { Obj } from '../api/resources';
import type { Ctx } from '../context';
import { ExitCodeError, UsageError } from '../errors';
import { write } from '../io';
import { readData } from '../input/data';
import { diffValue, hasWriteOnly, maskWriteOnly, renderChange, stripWriteOnly, withoutNulls, type Change, type WriteOnly } from './apply-diff';
import { examples, type Kit, type Opts } from './kit';
import { addIdempotencyOption, article, idempotencyKey, type ResourceSpec } from './resource';

type Doc = Record<string, unknown>;

export interface ApplyOptions {
  /** Members the service never returns (`mcp_servers.*.headers`): masked in the diff and not compared. */
  writeOnly?: WriteOnly;
  /** Members the service manages, besides `id` and the timestamps: ignored in the file (so `get -o yaml` output applies). */
  readOnly?: string[];
  /** Members a create needs. */
  required?: string[];
  /** Client-side checks of the file (enums), before any request. */
  check?: (doc: Doc) => void;
  /** The PATCH bodies to send in order for one update (a trigger switches session_mode first). */
  patches?: (live: Obj, patch: Doc) => Doc[];
  examples?: string[];
}

export interface ApplyResult {
  action: 'created' | 'updated' | 'unchanged';
  id: string | null;
  name: string;
  dry_run: boolean;
  diff: Change[];
}

const SERVER_MANAGED = ['id', 'created_at', 'updated_at', 'archived_at'];

/** `svc <group> apply FILE [--dry-run]`: declarative create-or-update by `name` (CLI.md "Commands"). */
export function addApply(group: Command, kit: Kit, spec: ResourceSpec, options: ApplyOptions = {}): Command {
  const cmd = group
    .command('apply')
    .argument('<file>', `${spec.noun} as JSON or YAML, or - for standard input`)
    .description(`Create or update ${article(spec.noun)} from a file, found by name; PATCHes only what differs`)
    .option('--dry-run', 'print the difference and send no write');
  addIdempotencyOption(cmd, 'Idempotency-Key of the create (default: a fresh UUID)');
  examples(cmd, options.examples ?? [`svc ${spec.group} apply ${spec.noun}.yaml --dry-run`, `svc ${spec.group} apply ${spec.noun}.yaml -o json`]);
  return cmd.action(kit.action(async (ctx, [file], opts) => runApply(ctx, spec, options, file, opts)));
}

export async function runApply(ctx: Ctx, spec: ResourceSpec, options: ApplyOptions, file: string, opts: Opts): Promise<void> {
  const doc = await readDoc(ctx, file, options);
  const name = doc.name as string;
  const writeOnly = options.writeOnly ?? [];
  const key = opts.dryRun ? undefined : idempotencyKey(opts);
  const c = await ctx.api();
  const live = await findByName(c, spec, name);
  let result: ApplyResult;
  if (!live) {
    for (const r of options.required ?? []) if (doc[r] === undefined) throw new UsageError(`${file}: ${spec.noun} ${r} is required to create "${name}"`);
    const shown = maskWriteOnly(doc, writeOnly);
    const diff: Change[] = Object.keys(doc).map((k) => ({ op: 'add', path: k, new: shown[k] }));
    const created = opts.dryRun ? undefined : await spec.api.create(c, doc, key!);
    result = { action: 'created', id: created?.id ?? null, name, dry_run: Boolean(opts.dryRun), diff };
  } else {
    const { patch, diff } = plan(doc, live, writeOnly);
    const id = live.id as string;
    if (diff.length === 0) {
      result = { action: 'unchanged', id, name, dry_run: Boolean(opts.dryRun), diff };
    } else {
      const bodies = options.patches ? options.patches(live, patch) : [patch];
      if (!opts.dryRun) for (const body of bodies) await spec.api.update(c, id, body);
      result = { action: 'updated', id, name, dry_run: Boolean(opts.dryRun), diff };
    }
  }
  await report(ctx, spec, result, hasWriteOnly(doc, writeOnly) ? writeOnly : []);
}

/** The file as an object with a name, without the members the service manages. */
async function readDoc(ctx: Ctx, file: string, options: ApplyOptions): Promise<Doc> {
  const data = await readData(file === '-' ? '@-' : `@${file}`, ctx.io.stdin, ctx.io.cwd, ctx.io.signal);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new UsageError(`${file} must hold one JSON or YAML object`);
  const doc = { ...(data as Doc) };
  for (const k of [...SERVER_MANAGED, ...(options.readOnly ?? [])]) delete doc[k];
  if (typeof doc.name !== 'string' || doc.name === '') throw new UsageError(`${file} needs a "name": apply finds the resource by it`);
  options.check?.(doc);
  return doc;
}

/** The active resource with this name; archived ones are left alone, two with one name are ambiguous. */
async function findByName(c: ApiClient, spec: ResourceSpec, name: string): Promise<Obj | undefined> {
  const found: Obj[] = [];
  for await (const item of spec.api.list(c, {}, { all: true, pageSize: 1000 })) if (item.name === name && !item.archived_at) found.push(item);
  if (found.length > 1) throw new ExitCodeError(7, `${found.length} ${spec.group} are named "${name}" (${found.map((f) => f.id).join(', ')}): apply needs a unique name`);
  return found[0];
}

/**
 * Compares only the members the file gives, each deeply (see diffValue); a member that differs anywhere is
 * PATCHed whole, as the file has it, because PATCH replaces a member. Write-only members cannot be read
 * back, so they are not compared: they are sent when their member is PATCHed for another difference.
 * A null in the file is sent as the field's empty value (withoutNulls).
 */
export function plan(doc: Doc, live: Obj, writeOnly: WriteOnly): { patch: Doc; diff: Change[] } {
  const want = stripWriteOnly(doc, writeOnly);
  const have = stripWriteOnly(live, writeOnly) as Doc;
  const patch: Doc = {};
  const diff: Change[] = [];
  for (const k of Object.keys(want)) {
    const changes = diffValue(k, want[k], have[k]);
    const sent = withoutNulls(doc[k], live[k]);
    if (changes.length && sent !== undefined) {
      patch[k] = sent;
      diff.push(...changes);
    }
  }
  return { patch, diff };
}

async function report(ctx: Ctx, spec: ResourceSpec, r: ApplyResult, uncompared: WriteOnly): Promise<void> {
  // A dry-run create has no ID yet: `-o id` prints nothing rather than "null".
  if (ctx.format === 'id' && !ctx.settings.jq) return r.id ? ctx.out.item(r) : undefined;
  if (ctx.format !== 'table' || ctx.settings.jq) return ctx.out.item(r);
  const paint = await painter(ctx);
  const lines = r.diff.map((c) => paint(c.op, renderChange(c)));
  const who = r.id ? `${spec.noun} ${r.id}` : `${spec.noun} "${r.name}"`;
  const verb = r.action === 'unchanged' ? 'unchanged' : r.dry_run ? `would be ${r.action} (dry run: nothing sent)` : r.action;
  const count = r.action === 'updated' ? ` (${r.diff.length} change${r.diff.length === 1 ? '' : 's'})` : '';
  lines.push(`${who} ${verb}${count}`);
  await write(ctx.io.stdout, lines.join('\n') + '\n');
  if (r.action === 'unchanged' && uncompared.length) {
    await ctx.msg(`note: write-only members (${uncompared.join(', ')}) cannot be read back, so they were not compared; use \`svc ${spec.group} update\` to change them alone`);
  }
}

async function painter(ctx: Ctx): Promise<(op: Change['op'], s: string) => string> {
  if (!ctx.useColor(ctx.io.stdout)) return (_op, s) => s;
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return (op, s) => (op === 'add' ? chalk.green(s) : op === 'remove' ? chalk.red(s) : chalk.yellow(s));
}
