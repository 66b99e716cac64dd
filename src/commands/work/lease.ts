import type { Command } from 'commander';
import { environments } from '../../api/environments';
import { work, type WorkItem } from '../../api/work';
import { parseCount } from '../../config/settings';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { inParent } from '../../cli/verbs/parent';
import { WORK_COLUMNS } from './columns';
import { withoutSecret, workClient } from './credential';

export type LeaseOp = 'ack' | 'heartbeat' | 'stop';

const LEASE_HELP: Record<LeaseOp, string> = {
  ack: 'Acknowledge a claimed row within its delivery window (queued → starting)',
  heartbeat: 'Renew the lease of a row (starting → active on the first one)',
  stop: 'Request a stop of a leased row, or complete it with --final-status completed',
};

/** `svc work get ENV ID`. */
export interface WorkRowOptions {
  env: string;
  id: string;
}

export const parseWorkRow = ([env, id]: string[]): WorkRowOptions => ({ env, id });

export async function runWorkGet(ctx: Ctx, o: WorkRowOptions): Promise<void> {
  const c = await workClient(ctx, true);
  await ctx.out.item(withoutSecret(await inParent(c, environments, o.env, (env) => work.get(c, env, o.id))), WORK_COLUMNS);
}

export function addWorkGet(group: Command, kit: Kit): Command {
  const get = group.command('get').argument('<env>', 'environment ID or name').argument('<id>', 'work row ID').description('Show one work row, in any state');
  examples(get, ['svc work get ENV_ID WORK_ID', 'svc work get ENV_ID WORK_ID --jq .status']);
  return get.action(kit.verb(parseWorkRow, runWorkGet));
}

/** `svc work ack|heartbeat|stop ENV ID --generation N` (stop: `[--final-status completed]`, checked by commander). */
export interface LeaseOptions extends WorkRowOptions {
  op: LeaseOp;
  generation: number;
  finalStatus?: 'completed';
}

/** `svc work ack` and `heartbeat`'s flags. */
export const LEASE_FLAGS = flagTable({
  generation: { flags: '--generation <n>', description: "the row's current generation (a stale one is refused with 412)", required: true },
});
/** `svc work stop`'s flags: the lease's and --final-status. */
export const STOP_FLAGS = flagTable({
  ...LEASE_FLAGS,
  finalStatus: { flags: '--final-status <status>', description: 'complete the row instead of requesting a stop', choices: ['completed'] },
});

export const parseLease =
  (op: LeaseOp) =>
  ([env, id]: string[], flags: FlagsOf<typeof STOP_FLAGS>): LeaseOptions => ({
    op,
    env,
    id,
    generation: parseCount(String(flags.generation), '--generation', 1),
    // Commander has checked the choice: completed or not given.
    finalStatus: flags.finalStatus === 'completed' ? 'completed' : undefined,
  });

export async function runLease(ctx: Ctx, o: LeaseOptions): Promise<void> {
  const c = await workClient(ctx, false);
  const row: WorkItem =
    o.op === 'stop'
      ? await work.stop(c, o.env, o.id, o.generation, o.finalStatus, ctx.io.signal)
      : await work[o.op](c, o.env, o.id, o.generation, ctx.io.signal);
  await ctx.out.item(withoutSecret(row), WORK_COLUMNS);
}

export function addLeaseOp(group: Command, kit: Kit, op: LeaseOp): Command {
  const cmd = group.command(op).argument('<env>', 'environment ID').argument('<id>', 'work row ID').description(LEASE_HELP[op]);
  addFlags(cmd, op === 'stop' ? STOP_FLAGS : LEASE_FLAGS);
  examples(cmd, [
    `svc work ${op} ENV_ID WORK_ID --generation 1`,
    ...(op === 'stop' ? ['svc work stop ENV_ID WORK_ID --generation 1 --final-status completed'] : []),
  ]);
  return cmd.action(kit.verb(parseLease(op), runLease));
}
