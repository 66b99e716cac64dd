import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { PENDING_COLUMNS } from './columns';
import { pickSession } from './pick';

/** `svc sessions pending SESSION`. */
export interface PendingOptions {
  session: string;
}

export const parsePending = ([session]: string[]): PendingOptions => ({ session });

export async function runPending(ctx: Ctx, o: PendingOptions): Promise<void> {
  const { items = [] } = await sessions.pending(await ctx.api(), o.session);
  // A queued input is known by its event_id: that is what -q prints.
  const ids = ctx.format === 'id' && ctx.settings.jq === undefined;
  await ctx.out.list(ids ? items.map((p) => ({ id: p.event_id })) : items, PENDING_COLUMNS);
}

export function addPending(group: Command, kit: Kit): void {
  const cmd = group.command('pending').argument('<session>', 'session ID').description('List the queued inputs not yet consumed, oldest first (not paginated)');
  pickSession(cmd);
  examples(cmd, ['svc sessions pending SESSION_ID', 'svc sessions pending SESSION_ID -o json --jq "length"']);
  cmd.action(kit.verb(parsePending, runPending));
}
