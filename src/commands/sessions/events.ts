import { Option, type Command } from 'commander';
import { sessions } from '../../api/sessions';
import { examples, type Kit } from '../../cli/action';
import { addListFlags, listOptions, printList } from '../../cli/verbs/resource';
import { EVENT_COLUMNS } from './columns';
import { pickSession } from './pick';

export const ORDERS = ['asc', 'desc'] as const;

/** `svc sessions events`: the persisted history (never deltas), of the session or of one thread. */
export function addEvents(group: Command, kit: Kit): void {
  const cmd = group
    .command('events')
    .argument('<session>', 'session ID')
    .description('List the event history of a session, or of one thread with --thread')
    .option('--thread <thread_id>', "only this thread's events")
    .addOption(new Option('--order <order>', 'asc (oldest first, default) or desc (newest first)').choices(ORDERS));
  addListFlags(pickSession(cmd));
  examples(cmd, [
    'svc sessions events SESSION_ID',
    'svc sessions events SESSION_ID --order desc --limit 10',
    'svc sessions events SESSION_ID --thread THREAD_ID --all -o ndjson',
  ]);
  cmd.action(
    kit.action(async (ctx, [sid], opts) => {
      const lo = listOptions(opts);
      const query = opts.order ? { order: opts.order as string } : {};
      const c = await ctx.api();
      await printList(ctx, lo, (page) => sessions.history(c, sid, query, page, opts.thread), EVENT_COLUMNS);
    }),
  );
}
