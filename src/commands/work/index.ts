import type { Command } from 'commander';
import { environments } from '../../api/environments';
import { work } from '../../api/work';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { LIST_FLAGS, mapAsync, parseChildList, runChildList, type ChildListOptions, type ChildListSource } from '../../cli/verbs/list';
import { listInParent } from '../../cli/verbs/parent';
import type { Obj } from '../../api/resources';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { WATCH_FLAGS } from '../../cli/verbs/selection-flags';
import { parseWatch, watchCells, type WatchPlan } from '../../cli/verbs/selector-list';
import { WORK_COLUMNS } from './columns';
import { withoutSecret, workClient } from './credential';
import { addLeaseOp, addWorkGet } from './lease';
import { addPoll } from './poll';
import { parseWorkStats, WORK_STATS_FLAGS } from './stats-parse';

const WORK_ROWS: ChildListSource = {
  columns: WORK_COLUMNS,
  // An environment work key cannot list environments: a name is found with the API key only.
  items: async (ctx, env, lo) => {
    const c = await workClient(ctx, true);
    return mapAsync(await listInParent(c, environments, env, (id) => work.list(c, id, {}, lo)), withoutSecret);
  },
};

/** `svc work list`'s flags: --environment, the list's and the watch's. */
export const WORK_LIST_FLAGS = flagTable({
  environment: {
    flags: '--environment <env>',
    description: 'environment ID, or its name when the API key is used (an environment key takes the ID only)',
  },
  ...LIST_FLAGS,
  ...WATCH_FLAGS,
});

/** The environment as the argument or `--environment` (both: the same one), exit 2 without it. */

export function parseWorkList([positional]: string[], flags: FlagsOf<typeof WORK_LIST_FLAGS>): ChildListOptions {
  const option = flags.environment;
  if (positional !== undefined && option !== undefined && positional !== option)
    throw new UsageError(`two environments given: ${positional} and --environment ${option}; give one`);
  const env = positional ?? option;
  if (env === undefined) throw new UsageError('give the environment: svc work list ENV_ID, or --environment ENV_ID');
  return parseChildList(WORK_ROWS, [env], flags);
}

/**
 * A work row has no `updated_at` and the list no time filter: every poll lists the rows and compares them whole. An
 * environment given by name is looked up at the first poll only: a quiet watch costs one request per interval.
 */
async function watchWork(ctx: Ctx, rows: ChildListOptions, plan: WatchPlan): Promise<void> {
  const { runWatchView } = await import('../../watch/rows');
  const c = await workClient(ctx, true);
  let env = rows.parentId;
  const page = { all: true, pageSize: rows.page.pageSize ?? 1000 };
  await runWatchView(ctx, {
    list: async function* () {
      const items = await listInParent(c, environments, env, (id) => {
        env = id;
        return work.list(c, id, {}, page);
      });
      yield* mapAsync(items, withoutSecret) as AsyncIterable<Obj>;
    },
    query: {},
    match: () => true,
    includeArchived: true,
    incremental: false,
    version: (row) => JSON.stringify(row),
    intervalMs: plan.intervalMs,
    timeoutMs: plan.timeoutMs,
    cells: watchCells(WORK_COLUMNS),
  });
}

export default function build(group: Command, kit: Kit): void {
  const list = addFlags(
    group.command('list').argument('[env]', 'environment ID or name (or --environment)').description('List the work rows of an environment'),
    WORK_LIST_FLAGS,
  );
  examples(list, ['svc work list ENV_ID', 'svc work list --environment ENV_ID --all -o ndjson', 'svc work list ENV_ID -w']);
  list.action(
    kit.verb(
      (args, flags) => ({ rows: parseWorkList(args, flags), watch: parseWatch(flags) }),
      (ctx, o) => (o.watch ? watchWork(ctx, o.rows, o.watch) : runChildList(ctx, o.rows)),
    ),
  );

  addWorkGet(group, kit);

  const stats = addFlags(
    group
      .command('stats')
      .argument('<env>', 'environment ID, or its name when the API key is used')
      .description(
        'Count the work queue of an environment: rows queued, leased (starting, active, stopping), stale (a lease past its TTL), the oldest queued age, ' +
          'and demand (queued + leased, for an autoscaler); one pass over the rows, one request a page',
      ),
    WORK_STATS_FLAGS,
  );
  examples(stats, [
    'svc work stats ENV_ID',
    'svc work stats ENV_ID -o json --jq .queued',
    'svc work stats ENV_ID -w --interval 30s',
    'svc work stats ENV_ID --serve 0.0.0.0:8080',
  ]);
  stats.action(kit.verb(parseWorkStats, async (ctx, o) => (await import('./stats')).runWorkStats(ctx, o)));

  addPoll(group, kit);
  for (const op of ['ack', 'heartbeat', 'stop'] as const) addLeaseOp(group, kit, op);
}
