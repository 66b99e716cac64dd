import { Option, type Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { examples, type FlagsOf, type FlagTable, type Kit } from '../../cli/action';
import { addListFlags, listOptions, printList, type ListPage } from '../../cli/verbs/resource';
import { LIST_FLAGS } from '../../cli/verbs/list';
import { EVENT_COLUMNS } from './columns';
import { pickSession } from './pick';

export const ORDERS = ['asc', 'desc'] as const;

/** `svc sessions events SESSION [--thread ID] [--order asc|desc]` and the list flags. */
export interface EventsOptions {
  session: string;
  thread?: string;
  order?: string;
  list: ListPage;
}

/** `svc sessions events`'s flags (declared in addEvents, with the list flags). */
export const SESSION_EVENTS_FLAGS = { thread: 'string', order: 'string', ...LIST_FLAGS } as const satisfies FlagTable;

export const parseEvents = ([session]: string[], flags: FlagsOf<typeof SESSION_EVENTS_FLAGS>): EventsOptions => ({
  session,
  list: listOptions(flags),
  order: flags.order,
  thread: flags.thread,
});

export async function runEvents(ctx: Ctx, o: EventsOptions): Promise<void> {
  const query = o.order ? { order: o.order } : {};
  const c = await ctx.api();
  await printList(ctx, o.list, (page) => sessions.history(c, o.session, query, page, o.thread), EVENT_COLUMNS);
}

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
  cmd.action(kit.verb(parseEvents, runEvents));
}
