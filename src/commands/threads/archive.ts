import type { Command } from 'commander';
import type { ApiClient } from '../../api/client';
import { threads } from '../../api/sessions';
import { parseCount } from '../../config/settings';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { MANY_FLAGS } from '../../cli/verbs/many';
import { done } from '../../cli/verbs/resource';
import { DEFAULT_CONCURRENCY, runBulk, type BulkAction, type BulkOptions, type BulkTarget } from '../../bulk/execute';
import { parseStatusList, readIds } from '../../selection/selectors';
import { matchesThreadStatus, THREAD_FILTER_VALUES, type SessionStateInput } from '../../session/state';

/** `svc threads archive SESSION THREAD… | - | --status S`, parsed before any request. */
export interface ThreadArchiveOptions {
  session: string;
  ids?: string[];
  stdin: boolean;
  /** Every child thread of the session in one of these statuses. */
  status?: string[];
  bulk: BulkOptions;
  /** One thread and no bulk flag: the single-thread verb as before (prints `{id, archived}`). */
  single: boolean;
}

/** `svc threads archive`'s flags: --status and the bulk ones. */
export const THREAD_ARCHIVE_FLAGS = flagTable({
  status: { flags: '--status <status,...>', description: `every child thread of the session in one of these statuses: ${THREAD_FILTER_VALUES.join(', ')}` },
  ...MANY_FLAGS,
});

export function parseThreadArchive([session, ...rest]: string[], flags: FlagsOf<typeof THREAD_ARCHIVE_FLAGS>): ThreadArchiveOptions {
  const stdin = rest.includes('-');
  if (stdin && rest.length > 1) throw new UsageError('give thread IDs as arguments or - for standard input, not both');
  const status = flags.status === undefined ? undefined : parseStatusList(String(flags.status), THREAD_FILTER_VALUES);
  if (status && rest.length) throw new UsageError('give thread IDs or --status, not both');
  if (!rest.length && !status) throw new UsageError('give child thread IDs, - to read them from standard input, or --status to select them');
  const bulk: BulkOptions = {
    yes: Boolean(flags.yes),
    dryRun: Boolean(flags.dryRun),
    concurrency: flags.concurrency === undefined ? DEFAULT_CONCURRENCY : parseCount(String(flags.concurrency), '--concurrency', 1, 64),
    failFast: Boolean(flags.failFast),
    ignoreNotFound: Boolean(flags.ignoreNotFound),
  };
  const bulkFlag = bulk.yes || bulk.dryRun || bulk.failFast || bulk.ignoreNotFound || flags.concurrency !== undefined;
  return { session, ids: stdin || !rest.length ? undefined : rest, stdin, status, bulk, single: !stdin && rest.length === 1 && !bulkFlag };
}

export async function runThreadArchive(ctx: Ctx, o: ThreadArchiveOptions): Promise<void> {
  const c = await ctx.api();
  if (o.single) return done(ctx, o.ids![0], await threads.archive(c, o.session, o.ids![0]), 'archived');
  const ids = o.stdin ? await readIds(ctx.io.stdin) : o.ids;
  const targets = ids ? [...new Set(ids)].map((id) => ({ id })) : await threadsInStatus(c, o.session, o.status!);
  await runBulk(ctx, { targets, action: archiveThread(o.session), options: o.bulk });
}

/** The session's child threads in one of `status` (the coordinator is archived with its session, never alone). */
async function threadsInStatus(c: ApiClient, session: string, status: string[]): Promise<BulkTarget[]> {
  const targets: BulkTarget[] = [];
  for await (const t of threads.list(c, session, {}, { all: true, pageSize: 1000 }))
    if (t.parent_thread_id !== null && status.some((v) => matchesThreadStatus(t as SessionStateInput, v))) targets.push({ id: String(t.id), row: t });
  return targets;
}

/** Archives one child thread; one already archived is `unchanged`. A listed thread needs no second read. */
function archiveThread(session: string): BulkAction {
  return {
    name: 'archive',
    past: 'archived',
    noun: 'thread',
    ignorableNotFound: true,
    async apply(c, t) {
      const current = t.row ?? (await threads.get(c, session, t.id));
      if (current.archived_at) return { unchanged: true };
      await threads.archive(c, session, t.id);
      return {};
    },
  };
}

export function addThreadArchive(group: Command, kit: Kit): Command {
  const cmd = group
    .command('archive')
    .argument('<session>', 'session ID')
    .argument('[threads...]', 'child thread IDs, or - to read them from standard input')
    .description('Archive child threads of a session, cancelling their running work (repeating is harmless)');
  addFlags(cmd, THREAD_ARCHIVE_FLAGS);
  examples(cmd, [
    'svc threads archive SESSION_ID THREAD_ID',
    'svc threads archive SESSION_ID --status running --yes',
    'svc threads archive SESSION_ID THREAD_A THREAD_B --yes -o ndjson',
  ]);
  return cmd.action(kit.verb(parseThreadArchive, runThreadArchive));
}
