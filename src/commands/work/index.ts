import { Option, type Command } from 'commander';
import { work, type WorkItem } from '../../api/work';
import { parseCount } from '../../config/settings';
import { examples, type Flags, type Kit } from '../../cli/action';
import { addListFlags, mapAsync, parseChildList, runChildList, type ChildListOptions, type ChildListSource } from '../../cli/verbs/list';
import type { Obj } from '../../api/resources';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { addWatchFlags } from '../../fleet/flags';
import { parseWatch, watchCells, type WatchPlan } from '../../fleet/list';
import { WORK_COLUMNS } from './columns';
import { withoutSecret, workClient } from './credential';
import { addPoll } from './poll';

type LeaseOp = 'ack' | 'heartbeat' | 'stop';

const LEASE_HELP: Record<LeaseOp, string> = {
  ack: 'Acknowledge a claimed row within its delivery window (queued → starting)',
  heartbeat: 'Renew the lease of a row (starting → active on the first one)',
  stop: 'Request a stop of a leased row, or complete it with --final-status completed',
};

const WORK_ROWS: ChildListSource = {
  columns: WORK_COLUMNS,
  items: async (ctx, env, lo) => mapAsync(work.list(await workClient(ctx, true), env, {}, lo), withoutSecret),
};

/** The environment as the argument or `--environment` (both: the same one), exit 2 without it. */
export function parseWorkList([positional]: string[], flags: Flags): ChildListOptions {
  const option = flags.environment as string | undefined;
  if (positional !== undefined && option !== undefined && positional !== option)
    throw new UsageError(`two environments given: ${positional} and --environment ${option}; give one`);
  const env = positional ?? option;
  if (env === undefined) throw new UsageError('give the environment: svc work list ENV_ID, or --environment ENV_ID');
  return parseChildList(WORK_ROWS, [env], flags);
}

/** A work row has no `updated_at` and the list no time filter: every poll lists the rows and compares them whole. */
async function watchWork(ctx: Ctx, rows: ChildListOptions, plan: WatchPlan): Promise<void> {
  const { runWatchView } = await import('../../fleet/watch-view');
  await runWatchView(ctx, {
    list: async function* () {
      yield* (await rows.source.items(ctx, rows.parentId, { all: true, pageSize: rows.page.pageSize ?? 1000 })) as AsyncIterable<Obj>;
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
  const list = group
    .command('list')
    .argument('[env]', 'environment ID (or --environment)')
    .option('--environment <env>', 'environment ID, as `svc worker run` takes it')
    .description('List the work rows of an environment');
  addWatchFlags(addListFlags(list));
  examples(list, ['svc work list ENV_ID', 'svc work list --environment ENV_ID --all -o ndjson', 'svc work list ENV_ID -w']);
  list.action(
    kit.verb(
      (args, flags) => ({ rows: parseWorkList(args, flags), watch: parseWatch(flags) }),
      (ctx, o) => (o.watch ? watchWork(ctx, o.rows, o.watch) : runChildList(ctx, o.rows)),
    ),
  );

  const get = group.command('get').argument('<env>', 'environment ID').argument('<id>', 'work row ID').description('Show one work row, in any state');
  examples(get, ['svc work get ENV_ID WORK_ID', 'svc work get ENV_ID WORK_ID --jq .status']);
  get.action(kit.action(async (ctx, [env, id]) => ctx.out.item(withoutSecret(await work.get(await workClient(ctx, true), env, id)), WORK_COLUMNS)));

  addPoll(group, kit);
  for (const op of ['ack', 'heartbeat', 'stop'] as const) addLeaseOp(group, kit, op);
}

function addLeaseOp(group: Command, kit: Kit, op: LeaseOp): Command {
  const cmd = group
    .command(op)
    .argument('<env>', 'environment ID')
    .argument('<id>', 'work row ID')
    .description(LEASE_HELP[op])
    .requiredOption('--generation <n>', "the row's current generation (a stale one is refused with 412)");
  if (op === 'stop') cmd.addOption(new Option('--final-status <status>', 'complete the row instead of requesting a stop').choices(['completed']));
  examples(cmd, [
    `svc work ${op} ENV_ID WORK_ID --generation 1`,
    ...(op === 'stop' ? ['svc work stop ENV_ID WORK_ID --generation 1 --final-status completed'] : []),
  ]);
  return cmd.action(
    kit.action(async (ctx, [env, id], opts) => {
      const generation = parseCount(opts.generation, '--generation', 1);
      const c = await workClient(ctx, false);
      const row: WorkItem =
        op === 'stop' ? await work.stop(c, env, id, generation, opts.finalStatus, ctx.io.signal) : await work[op](c, env, id, generation, ctx.io.signal);
      await ctx.out.item(withoutSecret(row), WORK_COLUMNS);
    }),
  );
}
