import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable } from '../../cli/flags';
import { confirmedWrite, readDeleted } from '../../cli/verbs/confirm-write';
import { done } from '../../cli/verbs/resource';
import { sessionActions } from './actions';
import { BULK_FLAGS, IGNORE_NOT_FOUND_FLAGS, parseOneOrMany, runMany, type OneOrManySessions } from './many';
import { pickSessions } from './pick';

/** `svc sessions delete`'s flags: the bulk ones and --ignore-not-found. */
export const SESSION_DELETE_FLAGS = flagTable({ ...BULK_FLAGS, ...IGNORE_NOT_FOUND_FLAGS });

export function addDelete(group: Command, kit: Kit): void {
  const cmd = group.command('delete').argument('[sessions...]', 'session IDs, or - to read them from standard input').description('Delete sessions');
  addFlags(pickSessions(cmd), SESSION_DELETE_FLAGS);
  examples(cmd, ['svc sessions delete SESSION_ID', 'svc sessions delete --status terminated --older-than 30d --yes']);
  cmd.action(kit.verb(parseOneOrMany, runSessionsDelete));
}

export function runSessionsDelete(ctx: Ctx, o: OneOrManySessions): Promise<void> {
  return o.many ? runMany(ctx, o.many, (x) => sessionActions(x).delete) : runDelete(ctx, o.session);
}

/** One session, as every resource's delete: a server_error is checked by reading the session back. */
export async function runDelete(ctx: Ctx, sid: string): Promise<void> {
  const c = await ctx.api();
  const deleted = await confirmedWrite(
    ctx,
    c,
    () => sessions.delete(c, sid),
    () => readDeleted(() => sessions.get(c, sid)),
    `session ${sid}`,
  );
  await done(ctx, sid, deleted, 'deleted');
}
