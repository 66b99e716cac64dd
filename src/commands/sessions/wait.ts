import type { Command } from 'commander';
import type { Ctx } from '../../context';
import { examples, type Kit } from '../../cli/action';
import { parseDeadline } from '../../follow/deadline';

/** `svc sessions wait SESSION [--timeout D]`: returns when the session is idle (exit 0), 11 when it failed, 124 on timeout. */
export function addWait(group: Command, kit: Kit): Command {
  const cmd = group
    .command('wait')
    .description('Wait until a session is idle (exit 11 on session.error, termination or an awaited tool reply; 124 on --timeout)')
    .argument('<session>', 'session ID')
    .option('--timeout <duration>', 'give up after this long: 10m, 30s, 1h or seconds (exit 124); default: no limit')
    .action(
      kit.action((ctx, [session], opts) => {
        const timeoutMs = parseDeadline(opts.timeout);
        return runWait(ctx, session, timeoutMs);
      }),
    );
  return examples(cmd, ['svc sessions wait sesn_123 --timeout 10m', 'svc sessions send sesn_123 --text "hi" && svc sessions wait sesn_123']);
}

export async function runWait(ctx: Ctx, sessionId: string, timeoutMs: number | undefined): Promise<void> {
  const { waitIdle } = await import('../../follow/wait-idle');
  const session = await waitIdle(ctx, await ctx.api(), sessionId, timeoutMs);
  await ctx.out.item(session);
}
