import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { listOptions, printList, type ListPage } from '../../cli/verbs/resource';
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

/** `svc sessions events`'s flags: its own and the list flags. */
export const SESSION_EVENTS_FLAGS = flagTable({
  thread: { flags: '--thread <thread_id>', description: "only this thread's events" },
  order: { flags: '--order <order>', description: 'asc (oldest first, default) or desc (newest first)', choices: ORDERS },
  ...LIST_FLAGS,
});

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
  const cmd = group.command('events').argument('<session>', 'session ID').description('List the event history of a session, or of one thread with --thread');
  addFlags(pickSession(cmd), SESSION_EVENTS_FLAGS);
  examples(cmd, [
    'svc sessions events SESSION_ID',
    'svc sessions events SESSION_ID --order desc --limit 10',
    'svc sessions events SESSION_ID --thread THREAD_ID --all -o ndjson',
  ]);
  cmd.action(kit.verb(parseEvents, runEvents));
}
