import type { Command } from 'commander';
import { work } from '../../api/work';
import { examples, type Flags, type Kit } from '../../cli/action';
import { addListFlags, mapAsync, parseChildList, runChildList, type ChildListOptions, type ChildListSource } from '../../cli/verbs/list';
import { UsageError } from '../../errors';
import { WORK_COLUMNS } from './columns';
import { withoutSecret, workClient } from './credential';
import { addLeaseOp, addWorkGet } from './lease';
import { addPoll } from './poll';

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

export default function build(group: Command, kit: Kit): void {
  const list = group
    .command('list')
    .argument('[env]', 'environment ID (or --environment)')
    .option('--environment <env>', 'environment ID, as `svc worker run` takes it')
    .description('List the work rows of an environment');
  addListFlags(list);
  examples(list, ['svc work list ENV_ID', 'svc work list --environment ENV_ID --all -o ndjson']);
  list.action(kit.verb(parseWorkList, runChildList));

  addWorkGet(group, kit);

  addPoll(group, kit);
  for (const op of ['ack', 'heartbeat', 'stop'] as const) addLeaseOp(group, kit, op);
}
