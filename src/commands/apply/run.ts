import type { Ctx } from '../../runtime/context';
import { ExitCodeError, UsageError } from '../../runtime/errors';
import { write } from '../../runtime/io';
import { execute } from '../../apply/execute';
import { makePlan } from '../../apply/plan';
import { appliedText, changed, entryView, planText } from '../../apply/render';
import { defaultSetName, readDocs } from '../../apply/sources';
import { withApplyLock } from '../../apply/lock';
import type { Doc, Entry } from '../../apply/types';
import { configDir } from '../../config/paths';
import type { ApplyAllOptions, SourceOptions } from './index';

/** The documents and the set of `svc apply` and `svc diff`, all read and checked before any request. */
async function docsAndSet(ctx: Ctx, opts: SourceOptions): Promise<{ docs: Doc[]; set: string }> {
  const { paths } = opts;
  const docs = await readDocs(ctx, paths);
  if (docs.length === 0) throw new UsageError(`no documents in ${paths.join(', ')} (*.yaml, *.yml, *.json)`);
  const set: string = opts.set ?? defaultSetName(paths, ctx.io.cwd);
  if (set.trim() === '') throw new UsageError('--set needs a name');
  return { docs, set };
}

/** The plan of the documents against the project; secrets are read only when a write will follow. */
async function planOf(ctx: Ctx, opts: SourceOptions, docs: Doc[], set: string, sending: boolean): Promise<Entry[]> {
  return makePlan(await ctx.api(), docs, {
    set,
    prune: opts.prune,
    updateSecrets: opts.updateSecrets,
    readSecrets: sending,
    env: ctx.io.env,
    signal: ctx.io.signal,
  });
}

const asText = (ctx: Ctx) => ctx.format === 'table' && !ctx.settings.jq;

/** `svc apply`: the plan first, then (unless --dry-run) its writes in dependency order; a prune is confirmed. */
export async function runApplyAll(ctx: Ctx, opts: ApplyAllOptions): Promise<void> {
  const { dryRun } = opts;
  const { docs, set } = await docsAndSet(ctx, opts);
  const planAndWrite = async () => {
    const entries = await planOf(ctx, opts, docs, set, !dryRun);
    if (asText(ctx)) await write(ctx.io.stdout, await planText(ctx, entries, set, opts.prune));
    if (dryRun) return entries;
    const archives = entries.filter((e) => e.action === 'archived');
    if (archives.length && !opts.yes) await confirmPrune(ctx, archives.length, set);
    await execute(ctx, entries, 'by name and set label');
    return entries;
  };
  // Applies of one set run one after another: each plans against what the one before it wrote.
  const lock = { dir: configDir(ctx.io.env), service: ctx.settings.baseUrl.value, set, note: (l: string) => void ctx.msg(l), signal: ctx.io.signal };
  const entries = dryRun ? await planAndWrite() : await withApplyLock(lock, planAndWrite);
  if (!asText(ctx))
    return ctx.out.list(
      entries.map((e) => entryView(e, dryRun)),
      [],
    );
  await write(ctx.io.stdout, dryRun ? 'dry run: nothing sent\n' : appliedText(entries));
}

async function confirmPrune(ctx: Ctx, n: number, set: string): Promise<void> {
  const what = `${n} resource${n === 1 ? '' : 's'} of set "${set}" that the files no longer hold`;
  if (!ctx.canPrompt) throw new UsageError(`the plan archives ${what}: pass --yes to confirm (cannot prompt: no terminal, --no-input or CI); nothing was sent`);
  const { confirm } = await import('../../input/prompt');
  if (!(await confirm(ctx.io, `Archive ${what}?`, ctx.settings.accessible))) throw new UsageError('prune not confirmed; nothing was sent');
}

/** `svc diff`: the plan, no write; exit 0 when nothing would change, 1 when something would (kubectl diff). */
export async function runDiff(ctx: Ctx, opts: SourceOptions): Promise<void> {
  const { docs, set } = await docsAndSet(ctx, opts);
  const entries = await planOf(ctx, opts, docs, set, false);
  if (asText(ctx)) await write(ctx.io.stdout, await planText(ctx, entries, set, opts.prune));
  else
    await ctx.out.list(
      entries.map((e) => entryView(e, true)),
      [],
    );
  if (changed(entries)) throw new ExitCodeError(1, 'the files differ from the project', true);
}
