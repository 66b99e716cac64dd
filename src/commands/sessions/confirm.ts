import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { examples, type Kit } from '../../cli/action';
import { printAccepted } from './accepted';
import { addFlags, flagTable, oneOf, type FlagsOf } from '../../cli/flags';

/** `svc sessions confirm SESSION EVENT_ID --allow|--deny [--message TEXT]`. */
export interface ConfirmOptions {
  session: string;
  eventId: string;
  result: 'allow' | 'deny';
  message?: string;
}

/** `svc sessions confirm`'s flags. */
export const SESSION_CONFIRM_FLAGS = flagTable({
  allow: { flags: '--allow', description: 'let the tool run' },
  deny: { flags: '--deny', description: 'refuse the tool call' },
  message: { flags: '--message <text>', description: 'with --deny: the reason given to the agent' },
});

export function parseConfirm([session, eventId]: string[], flags: FlagsOf<typeof SESSION_CONFIRM_FLAGS>): ConfirmOptions {
  const result = oneOf(flags, { '--allow': 'allow', '--deny': 'deny' }, true) === '--allow' ? 'allow' : 'deny';
  const message = flags.message;
  if (message !== undefined && result === 'allow') throw new UsageError('--message goes with --deny');
  return { session, eventId, result, message };
}

export async function runConfirm(ctx: Ctx, o: ConfirmOptions): Promise<void> {
  // Assumption (docs/service.md): user.tool_confirmation data is {event_id, result, deny_message?}; no session_thread_id.
  const data = { event_id: o.eventId, result: o.result, ...(o.message !== undefined ? { deny_message: o.message } : {}) };
  await printAccepted(ctx, await sessions.sendEvents(await ctx.api(), o.session, { events: [{ type: 'user.tool_confirmation', data }] }));
}

export function addConfirm(group: Command, kit: Kit): void {
  const cmd = group
    .command('confirm')
    .argument('<session>', 'session ID')
    .argument('<event_id>', 'ID of the agent.tool_use awaiting confirmation')
    .description('Allow or deny a tool call that awaits confirmation (user.tool_confirmation)');
  addFlags(cmd, SESSION_CONFIRM_FLAGS);
  examples(cmd, ['svc sessions confirm SESSION_ID EVENT_ID --allow', 'svc sessions confirm SESSION_ID EVENT_ID --deny --message "Not on production"']);
  cmd.action(kit.verb(parseConfirm, runConfirm));
}
