import { parseCount } from '../../config/settings';
import type { Ctx } from '../../runtime/context';
import { flagTable, type Flags } from '../../cli/flags';
import { DEFAULT_CONCURRENCY, runBulk, type BulkAction, type BulkOptions } from '../../bulk/execute';
import { pick, SELECTOR_FLAGS, targetsOf, type Picked } from './selectors';

/** The flags of every verb that acts on many sessions (docs/behaviour.md "Acting on many"). */
export const BULK_FLAGS = flagTable({
  ...SELECTOR_FLAGS,
  yes: { flags: '-y, --yes', description: 'act on more than one session without asking' },
  dryRun: { flags: '--dry-run', description: 'print the selection and send nothing' },
  concurrency: { flags: '--concurrency <n>', description: `requests in flight at once (default ${DEFAULT_CONCURRENCY})` },
  failFast: { flags: '--fail-fast', description: 'stop issuing writes at the first failure' },
});

/** `--ignore-not-found`, on the bulk verbs where a missing session can count as done (archive, delete). */
export const IGNORE_NOT_FOUND_FLAGS = flagTable({
  ignoreNotFound: { flags: '--ignore-not-found', description: 'count a session that does not exist as done' },
});

/** Whether the command line asks for the bulk behaviour rather than the single-session verb of before. */
export function wantsBulk(p: Picked, opts: Flags): boolean {
  const single = !p.stdin && p.ids?.length === 1;
  return !single || Boolean(opts.dryRun || opts.failFast || opts.ignoreNotFound || opts.concurrency !== undefined);
}

/** The sessions a bulk verb acts on and how. */
export interface ManySessions {
  picked: Picked;
  bulk: BulkOptions;
}

/** A verb of one session or many (`archive`, `delete`): the one session, or `many` for the bulk form. */
export interface OneOrManySessions {
  session: string;
  many?: ManySessions;
}

export function parseOneOrMany(args: string[], flags: Flags): OneOrManySessions {
  const picked = pick(args, flags);
  return { session: args[0], ...(wantsBulk(picked, flags) ? { many: { picked, bulk: parseBulk(flags) } } : {}) };
}

/** The bulk flags, parsed before any request. */
export function parseBulk(flags: Flags): BulkOptions {
  return {
    yes: Boolean(flags.yes),
    dryRun: Boolean(flags.dryRun),
    concurrency: flags.concurrency === undefined ? DEFAULT_CONCURRENCY : parseCount(String(flags.concurrency), '--concurrency', 1, 64),
    failFast: Boolean(flags.failFast),
    ignoreNotFound: Boolean(flags.ignoreNotFound),
  };
}

/** Selects the targets and runs `action` over them. */
export async function runMany(ctx: Ctx, m: ManySessions, action: (ctx: Ctx) => BulkAction): Promise<void> {
  const c = await ctx.api();
  const targets = await targetsOf(ctx, c, m.picked);
  await runBulk(ctx, { targets, action: action(ctx), options: m.bulk });
}
