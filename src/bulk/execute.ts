import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { Obj } from '../api/resources';
import type { Ctx } from '../runtime/context';
import { exitCodeFor, ExitCodeError, InterruptedError, UsageError } from '../runtime/errors';
import { errorJson } from '../output/error-line';
import type { Column } from '../output/table';
import { SharedPause } from './pause';

/** One thing to act on: its ID, and the object as the selection read it (when it came from a list). */
export interface BulkTarget {
  id: string;
  row?: Obj;
}

/** What an action did to one target: done, or already done (`unchanged`); `extra` joins the result (an epoch). */
export interface BulkOutcome {
  unchanged?: boolean;
  extra?: Record<string, unknown>;
}

export interface BulkAction {
  /** The verb as typed: `archive`. */
  name: string;
  /** The verb in the summary: `archived`. */
  past: string;
  /** What one target is: `session`. */
  noun: string;
  /**
   * Sends the write (and the reads it needs) for one target; throws the error that fails it. `named` is told the ID
   * when the target was given by name, so the result reports that ID (and the name).
   */
  apply(c: ApiClient, t: BulkTarget, named: (id: string) => void): Promise<BulkOutcome>;
  /** `--ignore-not-found` applies (delete and archive): a 404 is then a success, reported unchanged. */
  ignorableNotFound?: boolean;
  /** What `--dry-run` shows of a target beside its ID (what would be done). */
  preview?(t: BulkTarget): Record<string, unknown>;
  /** The table of results, when the action reports more than RESULT_COLUMNS show. */
  columns?: Column<BulkResult>[];
}

export interface BulkOptions {
  yes?: boolean;
  dryRun?: boolean;
  concurrency?: number;
  ignoreNotFound?: boolean;
  failFast?: boolean;
}

/** One line of the report: `{"id","action","ok","error"?}`, with `unchanged` and what the action returned. */
export interface BulkResult {
  /** The resource's ID: the one a name given stood for. */
  id: string;
  /** The name given, when the target was given by name. */
  name?: string;
  action: string;
  ok: boolean;
  unchanged?: boolean;
  error?: Record<string, unknown>;
  [extra: string]: unknown;
}

export const DEFAULT_CONCURRENCY = 4;
/** How many targets the consent prompt shows. */
const PROMPT_ROWS = 5;

export const RESULT_COLUMNS: Column<BulkResult>[] = [
  { header: 'ID', get: (r) => r.id },
  { header: 'ACTION', get: (r) => r.action },
  { header: 'RESULT', get: (r) => (r.dry_run ? 'dry run' : r.ok ? (r.unchanged ? 'unchanged' : 'ok') : 'failed') },
  { header: 'EPOCH', get: (r) => r.control_epoch },
  { header: 'ERROR', get: (r) => r.error?.message },
];

/**
 * Acts on many targets: consent (more than one needs a yes), `--dry-run`, `--concurrency` workers sharing one
 * pause on 429, a result per target in input order, one summary line on stderr, and the exit code of the first
 * failed target. Ctrl-C stops issuing writes, lets those in flight finish, reports them and exits 130.
 */
export async function runBulk(ctx: Ctx, o: { targets: BulkTarget[]; action: BulkAction; options: BulkOptions }): Promise<void> {
  const { targets, action, options } = o;
  if (targets.length === 0) return void (await ctx.msg('nothing matched'));
  if (options.dryRun) {
    await ctx.out.list(
      targets.map((t) => ({ id: t.id, action: action.name, ok: true, dry_run: true, ...action.preview?.(t) })),
      action.columns ?? RESULT_COLUMNS,
    );
    return void (await ctx.msg(`dry run: would ${action.name} ${count(targets.length, action.noun)}; nothing was sent`));
  }
  if (targets.length > 1 && !options.yes) await consent(ctx, targets, action);
  const run = await execute(ctx, targets, action, options);
  await ctx.out.list(run.results, action.columns ?? RESULT_COLUMNS);
  const done = await run.finished;
  await ctx.msg(summary(done.results, action, targets.length));
  if (done.interrupted) throw new InterruptedError();
  const failed = done.results.find((r) => r && !r.ok);
  if (failed) throw new ExitCodeError(done.codes.get(failed) ?? 1, `${action.name} failed for ${failed.id}`, true);
}

async function consent(ctx: Ctx, targets: BulkTarget[], action: BulkAction): Promise<void> {
  const what = `${action.name} ${count(targets.length, action.noun)}`;
  if (!ctx.canPrompt)
    throw new UsageError(`${what}: pass --yes to confirm (cannot prompt: no terminal, --no-input or CI), or --dry-run to see them; nothing was sent`);
  const { confirm, inputEnded } = await import('../input/prompt');
  if (inputEnded(ctx.io))
    throw new UsageError(`${what}: standard input has ended (the IDs were read from it), so no answer can be read: pass --yes to confirm; nothing was sent`);
  const shown = targets.slice(0, PROMPT_ROWS).map((t) => `  ${rowText(t)}`);
  if (targets.length > PROMPT_ROWS) shown.push(`  … and ${targets.length - PROMPT_ROWS} more`);
  await ctx.msg(shown.join('\n'));
  const what1 = what.charAt(0).toUpperCase() + what.slice(1);
  if (!(await confirm(ctx.io, `${what1}?`, ctx.settings.accessible))) throw new UsageError(`not confirmed; nothing was sent`);
}

function rowText(t: BulkTarget): string {
  const r = t.row;
  if (!r) return t.id;
  const parts = [t.id, r.status, r.title ?? r.name ?? r.agent_name].filter((x) => x !== undefined && x !== null && x !== '');
  return parts.join('  ');
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

interface Finished {
  results: BulkResult[];
  codes: Map<BulkResult, number>;
  interrupted: boolean;
}

/** Starts the workers; `results` yields each result in input order as soon as it and those before it are in. */
async function execute(
  ctx: Ctx,
  targets: BulkTarget[],
  action: BulkAction,
  options: BulkOptions,
): Promise<{ results: AsyncIterable<BulkResult>; finished: Promise<Finished> }> {
  const pause = new SharedPause(ctx.sleep, ctx.now);
  const client = await pausingClient(ctx, pause);
  const signal = ctx.io.signal;
  const slots: Array<BulkResult | undefined> = new Array(targets.length);
  const codes = new Map<BulkResult, number>();
  let next = 0;
  let stop = false;
  let wake = () => {};

  const one = async (t: BulkTarget): Promise<BulkResult> => {
    let byName: string | undefined;
    const who = () => (byName === undefined ? { id: t.id } : { id: byName, name: t.id });
    try {
      const outcome = await action.apply(client, t, (id) => (byName = id));
      return { ...who(), action: action.name, ok: true, ...(outcome.unchanged ? { unchanged: true } : {}), ...outcome.extra };
    } catch (e) {
      if (options.ignoreNotFound && action.ignorableNotFound && e instanceof ApiError && e.status === 404)
        return { ...who(), action: action.name, ok: true, unchanged: true };
      const failed: BulkResult = { ...who(), action: action.name, ok: false, error: (JSON.parse(errorJson(e)) as { error: Record<string, unknown> }).error };
      codes.set(failed, exitCodeFor(e));
      return failed;
    }
  };
  const worker = async () => {
    for (;;) {
      await pause.ready();
      if (stop || signal?.aborted || next >= targets.length) return;
      const i = next++;
      const r = await one(targets[i]);
      slots[i] = r;
      if (!r.ok && options.failFast) stop = true;
      wake();
    }
  };
  const n = Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, targets.length));
  let allDone = false;
  const finished = Promise.all(Array.from({ length: n }, worker)).then((): Finished => {
    allDone = true;
    wake();
    return { results: slots.slice(0, next) as BulkResult[], codes, interrupted: Boolean(signal?.aborted) && next < targets.length };
  });
  async function* inOrder(): AsyncGenerator<BulkResult> {
    for (let i = 0; i < targets.length; i++) {
      while (slots[i] === undefined) {
        if (allDone) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
      yield slots[i]!;
    }
  }
  return { results: inOrder(), finished };
}

/**
 * A client whose retry waits go through the shared pause, and whose requests outlive Ctrl-C (unless `outliveSignal`
 * is false, for reads): a write in flight finishes and is reported rather than cut off with its outcome unknown.
 */
export async function pausingClient(ctx: Ctx, pause: SharedPause, outliveSignal = true): Promise<ApiClient> {
  const { Ctx: Context } = await import('../runtime/context');
  const paced = new Context({ ...ctx.io, sleep: (ms) => pause.hold(ms) }, ctx.globals);
  return paced.client(ctx.apiKey(), undefined, { outliveSignal });
}

function summary(results: BulkResult[], action: BulkAction, total: number): string {
  const done = results.filter((r) => r.ok && !r.unchanged).length;
  const unchanged = results.filter((r) => r.ok && r.unchanged).length;
  const failed = results.filter((r) => !r.ok).length;
  const parts = [`${action.past} ${done}`, `unchanged ${unchanged}`, `failed ${failed}`];
  if (results.length < total) parts.push(`not attempted ${total - results.length}`);
  return parts.join(', ');
}
