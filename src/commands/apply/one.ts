import { dirname, resolve } from 'node:path';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { write } from '../../runtime/io';
import { readData } from '../../input/data';
import { isObject } from '../../wire/is-object';
import { renderChange, type Change } from '../../apply/diff';
import { execute } from '../../apply/execute';
import { KIND_SPECS, type Kind } from '../../apply/kinds/index';
import { makePlan } from '../../apply/plan';
import type { Entry } from '../../apply/types';
import { painter } from '../../apply/render';
import { checkedDoc } from '../../apply/sources';
import { idempotencyKey } from '../../cli/verbs/resource';

export interface ApplyResult {
  action: 'created' | 'updated' | 'unchanged';
  id: string | null;
  name: string;
  dry_run: boolean;
  diff: Change[];
}

/** `svc <group> apply FILE [--dry-run] [--update-secrets] [--idempotency-key K]` for the group's kind. */
export interface ApplyOneOptions {
  kind: Kind;
  file: string;
  dryRun: boolean;
  updateSecrets: boolean;
  idempotencyKey?: string;
}

/** One document of one kind, found by name: what `svc <group> apply FILE` runs (loaded only when it runs). */
export async function runApply(ctx: Ctx, opts: ApplyOneOptions): Promise<void> {
  const { kind, file } = opts;
  const data = await readData(file === '-' ? '@-' : `@${file}`, ctx.io.stdin, ctx.io.cwd, ctx.io.signal);
  if (!isObject(data)) throw new UsageError(`${file} must hold one JSON or YAML object`);
  const { kind: named, ...body } = data;
  if (named !== undefined && named !== kind)
    throw new UsageError(`${file} holds kind ${String(named)}; \`svc ${KIND_SPECS[kind].group} apply\` applies kind ${kind} (use \`svc apply -f ${file}\`)`);
  const doc = checkedDoc(kind, body, file, file === '-' ? ctx.io.cwd : dirname(resolve(ctx.io.cwd, file)), false);
  const { dryRun } = opts;
  const key = dryRun ? undefined : idempotencyKey(opts);
  const [entry] = await makePlan(await ctx.api(), [doc], {
    updateSecrets: opts.updateSecrets,
    readSecrets: !dryRun,
    idempotencyKey: key,
    env: ctx.io.env,
    signal: ctx.io.signal,
  });
  if (!dryRun) await execute(ctx, [entry], 'by name');
  await report(ctx, kind, entry, dryRun);
}

async function report(ctx: Ctx, kind: Kind, e: Entry, dryRun: boolean): Promise<void> {
  const spec = KIND_SPECS[kind];
  const r: ApplyResult = { action: e.action as ApplyResult['action'], id: e.id, name: e.name, dry_run: dryRun, diff: e.diff };
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
  if (r.action === 'unchanged' && e.uncompared) {
    await ctx.msg(
      `note: write-only members (${(spec.writeOnly ?? []).join(', ')}) cannot be read back, so they were not compared; use --update-secrets to send them again`,
    );
  }
}
