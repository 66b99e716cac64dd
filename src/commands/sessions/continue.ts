import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../context';
import { examples, type Kit, type Opts } from '../../cli/action';
import { SESSION_COLUMNS } from './columns';
import { epochAtLeast, pollSession } from './poll';

export function addContinue(group: Command, kit: Kit): void {
  const cmd = group
    .command('continue')
    .argument('<session>', 'session ID')
    .description('Resume an interrupted session, keeping its queued input; prints the returned control epoch, or with --wait the started session')
    .option('--wait', 'read the session until the start has completed (continue_pending false on the returned epoch), then print it');
  examples(cmd, ['svc sessions continue SESSION_ID', 'svc sessions continue SESSION_ID --wait -o json']);
  cmd.action(kit.action((ctx, [sid], opts) => runContinue(ctx, sid, opts)));
}

export async function runContinue(ctx: Ctx, sid: string, opts: Opts): Promise<void> {
  const c = await ctx.api();
  const { control_epoch } = await sessions.continue(c, sid);
  if (!opts.wait) return ctx.out.item({ id: sid, control_epoch });
  // An accepted Continue is not a completed start (R-SESS-37).
  // Assumption (API-NOTES): done when continue_pending is false and control_epoch is at least the returned one.
  const s = await pollSession(ctx, c, sid, (s) => s.continue_pending === false && epochAtLeast(s.control_epoch, control_epoch));
  await ctx.out.item(s, SESSION_COLUMNS);
}
