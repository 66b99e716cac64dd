import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { SESSION_COLUMNS } from './columns';
import { epochAtLeast, pollSession } from './poll';
import { sessionActions } from './actions';
import { BULK_FLAGS, parseBulk, runMany, wantsBulk, type ManySessions } from './many';
import { pickSessions } from './pick';
import { pick } from './selectors';

/** `svc sessions continue`'s flags: --wait and the bulk ones. */
export const SESSION_CONTINUE_FLAGS = flagTable({
  wait: {
    flags: '--wait',
    description: 'read the session until the start has completed (continue_pending false on the returned epoch), then print it (one session)',
  },
  ...BULK_FLAGS,
});

export function addContinue(group: Command, kit: Kit): void {
  const cmd = group
    .command('continue')
    .argument('[sessions...]', 'session IDs, or - to read them from standard input')
    .description('Resume interrupted sessions, keeping their queued input; prints the returned control epoch, or with --wait the started session');
  addFlags(pickSessions(cmd), SESSION_CONTINUE_FLAGS);
  examples(cmd, ['svc sessions continue SESSION_ID', 'svc sessions continue SESSION_ID --wait -o json', 'svc sessions continue --agent triage --yes']);
  cmd.action(kit.verb(parseContinue, runContinue));
}

/** `svc sessions continue ID [--wait]`, or `many` for the bulk form (which refuses --wait). */
export interface ContinueOptions {
  session: string;
  wait: boolean;
  many?: ManySessions;
}

export function parseContinue(args: string[], flags: FlagsOf<typeof SESSION_CONTINUE_FLAGS>): ContinueOptions {
  const picked = pick(args, flags);
  const o = { session: args[0], wait: Boolean(flags.wait) };
  if (!wantsBulk(picked, flags)) return o;
  if (flags.wait) throw new UsageError('--wait works on one session; for many, follow with `svc sessions wait`');
  return { ...o, many: { picked, bulk: parseBulk(flags) } };
}

export async function runContinue(ctx: Ctx, o: ContinueOptions): Promise<void> {
  if (o.many) return runMany(ctx, o.many, (x) => sessionActions(x).continue);
  const sid = o.session;
  const c = await ctx.api();
  const { control_epoch } = await sessions.continue(c, sid);
  if (!o.wait) return ctx.out.item({ id: sid, control_epoch });
  // An accepted Continue is not a completed start.
  // Assumption (docs/service.md): done when continue_pending is false and control_epoch is at least the returned one.
  const s = await pollSession(ctx, c, sid, (s) => s.continue_pending === false && epochAtLeast(s.control_epoch, control_epoch));
  await ctx.out.item(s, SESSION_COLUMNS);
}
