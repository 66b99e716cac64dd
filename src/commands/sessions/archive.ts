import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable } from '../../cli/flags';
import { done } from '../../cli/verbs/resource';
import { pollSession } from './poll';
import { sessionActions } from './actions';
import { BULK_FLAGS, IGNORE_NOT_FOUND_FLAGS, parseOneOrMany, runMany, type OneOrManySessions } from './many';
import { pickSessions } from './pick';

/** `svc sessions archive`'s flags: the bulk ones and --ignore-not-found. */
export const SESSION_ARCHIVE_FLAGS = flagTable({ ...BULK_FLAGS, ...IGNORE_NOT_FOUND_FLAGS });

export function addArchive(group: Command, kit: Kit): void {
  const cmd = group
    .command('archive')
    .argument('[sessions...]', 'session IDs, or - to read them from standard input')
    .description('Archive (terminate) sessions, cancelling their threads; a running session is interrupted first and waited for');
  addFlags(pickSessions(cmd), SESSION_ARCHIVE_FLAGS);
  examples(cmd, [
    'svc sessions archive SESSION_ID',
    'svc sessions archive SESSION_ID -o json --jq .archived_at',
    'svc sessions archive --idle-for 7d --yes',
    'svc sessions list --status idle -q | svc sessions archive - --yes',
  ]);
  cmd.action(kit.verb(parseOneOrMany, runSessionsArchive));
}

export function runSessionsArchive(ctx: Ctx, o: OneOrManySessions): Promise<void> {
  return o.many ? runMany(ctx, o.many, (x) => sessionActions(x).archive) : runArchive(ctx, o.session);
}

/** The spec's order: interrupt a running or stopping session and wait for idle, then archive. */
export async function runArchive(ctx: Ctx, sid: string): Promise<void> {
  const c = await ctx.api();
  const s = await sessions.get(c, sid);
  if (s.status === 'running' || s.stopping) {
    await ctx.msg(`interrupting ${sid} and waiting for it to stop before archiving`);
    if (!s.stopping) await sessions.interrupt(c, sid);
    await pollSession(ctx, c, sid, (x) => !x.stopping && x.status !== 'running');
  }
  await done(ctx, sid, await sessions.archive(c, sid), 'archived');
}
