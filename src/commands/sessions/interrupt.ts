import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { CONTROL_EPOCH_PATTERN } from '../../wire/limits';
import { examples, type Kit, type Opts } from '../../cli/action';
import { SESSION_COLUMNS } from './columns';
import { epochAtLeast, pollSession } from './poll';

export function addInterrupt(group: Command, kit: Kit): void {
  const cmd = group
    .command('interrupt')
    .argument('<session>', 'session ID')
    .description('Stop the running turn (user.interrupt); prints the new control epoch, or with --wait the stopped session')
    .option('--expected-epoch <epoch>', 'only if the session is still at this control epoch (else exit 7, nothing changes)')
    .option('--wait', 'read the session until it has stopped, then print it');
  examples(cmd, ['svc sessions interrupt SESSION_ID', 'svc sessions interrupt SESSION_ID --expected-epoch 4 --wait']);
  cmd.action(kit.action((ctx, [sid], opts) => runInterrupt(ctx, sid, opts)));
}

export async function runInterrupt(ctx: Ctx, sid: string, opts: Opts): Promise<void> {
  const expected: string | undefined = opts.expectedEpoch;
  if (expected !== undefined && !CONTROL_EPOCH_PATTERN.test(expected))
    throw new UsageError(`--expected-epoch must be a control epoch: decimal digits, no leading zero, at most 19 (got "${expected}")`);
  const c = await ctx.api();
  const { control_epoch } = (await sessions.interrupt(c, sid, expected)) ?? {};
  if (!opts.wait) return ctx.out.item({ id: sid, control_epoch });
  // Neither the 202 nor the acknowledgement means the turn has stopped: read the session (R-SESS-28).
  const s = await pollSession(
    ctx,
    c,
    sid,
    (s) => !s.stopping && s.status !== 'running' && (control_epoch === undefined || epochAtLeast(s.control_epoch, control_epoch)),
  );
  await ctx.out.item(s, SESSION_COLUMNS);
}
