import type { Command } from 'commander';
import { threads } from '../../api/sessions';
import { examples, type Kit } from '../../cli/action';
import { addChildList } from '../../cli/verbs/resource';
import { addThreadArchive } from './archive';
import { THREAD_COLUMNS } from './columns';
import { addThreadTail } from './tail';
import { RECENT_SESSIONS } from '../sessions/pick';

/** `svc threads VERB SESSION THREAD`. */
export interface ThreadOptions {
  session: string;
  thread: string;
}

export const parseThread = ([session, thread]: string[]): ThreadOptions => ({ session, thread });

// Assumption (docs/service.md): thread paths, the Thread object, and archive answering 204 (printed as {id, archived}).
export default function build(group: Command, kit: Kit): void {
  addChildList(group, kit, {
    name: 'list',
    parent: { arg: '<session>', description: 'session ID', pick: RECENT_SESSIONS },
    description: 'List the threads of a session: the coordinator and its child threads',
    columns: THREAD_COLUMNS,
    examples: ['svc threads list SESSION_ID', 'svc threads list SESSION_ID -o json --jq ".[] | select(.parent_thread_id != null) | .id"'],
    items: async (ctx, sid, lo) => threads.list(await ctx.api(), sid, {}, lo),
  });

  const get = group.command('get').argument('<session>', 'session ID').argument('<thread>', 'thread ID').description('Show one thread of a session');
  examples(get, ['svc threads get SESSION_ID THREAD_ID', 'svc threads get SESSION_ID THREAD_ID -o json --jq .status']);
  get.action(kit.verb(parseThread, async (ctx, o) => ctx.out.item(await threads.get(await ctx.api(), o.session, o.thread), THREAD_COLUMNS)));

  addThreadArchive(group, kit);
  addThreadTail(group, kit);
}
