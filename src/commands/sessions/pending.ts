import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import { examples, type Kit } from '../../cli/action';
import { PENDING_COLUMNS } from './columns';
import { pickSession } from './pick';

export function addPending(group: Command, kit: Kit): void {
  const cmd = group.command('pending').argument('<session>', 'session ID').description('List the queued inputs not yet consumed, oldest first (not paginated)');
  pickSession(cmd);
  examples(cmd, ['svc sessions pending SESSION_ID', 'svc sessions pending SESSION_ID -o json --jq "length"']);
  cmd.action(
    kit.action(async (ctx, [sid]) => {
      const { items = [] } = await sessions.pending(await ctx.api(), sid);
      // A queued input is known by its event_id: that is what -q prints.
      const ids = ctx.format === 'id' && ctx.settings.jq === undefined;
      await ctx.out.list(ids ? items.map((p) => ({ id: p.event_id })) : items, PENDING_COLUMNS);
    }),
  );
}
