import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../context';
import { examples, type Flags, type Kit } from '../../cli/action';
import { confirmedWrite, readDeleted } from '../../cli/verbs/confirm-write';
import { done } from '../../cli/verbs/resource';
import { sessionActions } from './actions';
import { addBulkFlags, parseBulk, runMany, wantsBulk, type ManySessions } from './many';
import { pickSessions } from './pick';
import { pick } from './selectors';

export function addDelete(group: Command, kit: Kit): void {
  const cmd = group.command('delete').argument('[sessions...]', 'session IDs, or - to read them from standard input').description('Delete sessions');
  addBulkFlags(pickSessions(cmd), { ignoreNotFound: true });
  examples(cmd, ['svc sessions delete SESSION_ID', 'svc sessions delete --status terminated --older-than 30d --yes']);
  cmd.action(kit.verb(parseSessionsDelete, runSessionsDelete));
}

/** `svc sessions delete ID…|-|SELECTORS` and the bulk flags: one session, or `many` for the bulk form. */
export interface SessionsDeleteOptions {
  session: string;
  many?: ManySessions;
}

export function parseSessionsDelete(args: string[], flags: Flags): SessionsDeleteOptions {
  const picked = pick(args, flags);
  return { session: args[0], ...(wantsBulk(picked, flags) ? { many: { picked, bulk: parseBulk(flags) } } : {}) };
}

export function runSessionsDelete(ctx: Ctx, o: SessionsDeleteOptions): Promise<void> {
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
