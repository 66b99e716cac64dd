import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { CONTROL_EPOCH_PATTERN } from '../../wire/limits';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { SESSION_COLUMNS } from './columns';
import { epochAtLeast, pollSession } from './poll';
import { sessionActions } from './actions';
import { BULK_FLAGS, parseBulk, runMany, wantsBulk, type ManySessions } from './many';
import { pickSessions } from './pick';
import { pick } from './selectors';

/** `svc sessions interrupt`'s flags: its own and the bulk ones. */
export const SESSION_INTERRUPT_FLAGS = flagTable({
  expectedEpoch: {
    flags: '--expected-epoch <epoch>',
    description: 'only if the session is still at this control epoch (else exit 7, nothing changes; one session)',
  },
  wait: { flags: '--wait', description: 'read the session until it has stopped, then print it (one session)' },
  ...BULK_FLAGS,
});

export function addInterrupt(group: Command, kit: Kit): void {
  const cmd = group
    .command('interrupt')
    .argument('[sessions...]', 'session IDs, or - to read them from standard input')
    .description('Stop the running turn (user.interrupt); prints the new control epoch, or with --wait the stopped session');
  addFlags(pickSessions(cmd), SESSION_INTERRUPT_FLAGS);
  examples(cmd, [
    'svc sessions interrupt SESSION_ID',
    'svc sessions interrupt SESSION_ID --expected-epoch 4 --wait',
    'svc sessions interrupt --agent misbehaving-bot --status running --yes',
  ]);
  cmd.action(kit.verb(parseInterrupt, runInterrupt));
}

/** `svc sessions interrupt ID [--expected-epoch E] [--wait]`, or `many` for the bulk form (which refuses both). */
export interface InterruptOptions {
  session: string;
  expectedEpoch?: string;
  wait: boolean;
  many?: ManySessions;
}

export function parseInterrupt(args: string[], flags: FlagsOf<typeof SESSION_INTERRUPT_FLAGS>): InterruptOptions {
  const picked = pick(args, flags);
  const expected = flags.expectedEpoch;
  const o = { session: args[0], expectedEpoch: expected, wait: Boolean(flags.wait) };
  if (wantsBulk(picked, flags)) {
    if (flags.wait || expected !== undefined)
      throw new UsageError('--wait and --expected-epoch work on one session; many are interrupted at the epoch each is read at');
    return { ...o, many: { picked, bulk: parseBulk(flags) } };
  }
  if (expected !== undefined && !CONTROL_EPOCH_PATTERN.test(expected))
    throw new UsageError(`--expected-epoch must be a control epoch: decimal digits, no leading zero, at most 19 (got "${expected}")`);
  return o;
}

export async function runInterrupt(ctx: Ctx, o: InterruptOptions): Promise<void> {
  if (o.many) return runMany(ctx, o.many, (x) => sessionActions(x).interrupt);
  const sid = o.session;
  const c = await ctx.api();
  const { control_epoch } = (await sessions.interrupt(c, sid, o.expectedEpoch)) ?? {};
  if (!o.wait) return ctx.out.item({ id: sid, control_epoch });
  // Neither the 202 nor the acknowledgement means the turn has stopped: read the session.
  const s = await pollSession(
    ctx,
    c,
    sid,
    (s) => !s.stopping && s.status !== 'running' && (control_epoch === undefined || epochAtLeast(s.control_epoch, control_epoch)),
  );
  await ctx.out.item(s, SESSION_COLUMNS);
}
