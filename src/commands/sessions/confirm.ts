import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { examples, type Kit, type Opts } from '../../cli/action';
import { printAccepted } from './accepted';
import { oneOf } from '../../cli/flags';

export function addConfirm(group: Command, kit: Kit): void {
  const cmd = group
    .command('confirm')
    .argument('<session>', 'session ID')
    .argument('<event_id>', 'ID of the agent.tool_use awaiting confirmation')
    .description('Allow or deny a tool call that awaits confirmation (user.tool_confirmation)')
    .option('--allow', 'let the tool run')
    .option('--deny', 'refuse the tool call')
    .option('--message <text>', 'with --deny: the reason given to the agent');
  examples(cmd, ['svc sessions confirm SESSION_ID EVENT_ID --allow', 'svc sessions confirm SESSION_ID EVENT_ID --deny --message "Not on production"']);
  cmd.action(kit.action((ctx, [sid, eventId], opts) => runConfirm(ctx, sid, eventId, opts)));
}

export async function runConfirm(ctx: Ctx, sid: string, eventId: string, opts: Opts): Promise<void> {
  const result = oneOf(opts, { '--allow': 'allow', '--deny': 'deny' }, true) === '--allow' ? 'allow' : 'deny';
  if (opts.message !== undefined && result === 'allow') throw new UsageError('--message goes with --deny');
  // Assumption (API-NOTES): user.tool_confirmation data is {event_id, result, deny_message?}; no session_thread_id.
  const data = { event_id: eventId, result, ...(opts.message !== undefined ? { deny_message: opts.message } : {}) };
  await printAccepted(ctx, await sessions.sendEvents(await ctx.api(), sid, { events: [{ type: 'user.tool_confirmation', data }] }));
}
