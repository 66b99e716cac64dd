import type { Command } from 'commander';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { parseDeadline } from '../../follow/deadline';
import { parseDuration } from '../../text/duration';
import { isSingle, pick, SELECTOR_FLAGS, targetsOf, type Picked } from './selectors';
import { pickSessions } from './pick';

/** `svc sessions wait`'s flags: its own and the selectors. */
export const SESSION_WAIT_FLAGS = flagTable({
  timeout: { flags: '--timeout <duration>', description: 'give up after this long: 10m, 30s, 1h or seconds (exit 124); default: no limit' },
  failFast: { flags: '--fail-fast', description: 'with many sessions: stop at the first that fails' },
  ...SELECTOR_FLAGS,
});

/** `svc sessions wait SESSION [--timeout D]`: returns when the session is idle (exit 0); else the code of the state it settled in, 124 on timeout. */
export function addWait(group: Command, kit: Kit): Command {
  const cmd = group
    .command('wait')
    .description(
      'Wait until sessions settle: exit 0 idle, 11 failed, terminated or archived, 12 interrupted, 13 waiting on a reply, 124 --timeout; many: the worst',
    )
    .argument('[sessions...]', 'session IDs, or - to read them from standard input');
  addFlags(pickSessions(cmd), SESSION_WAIT_FLAGS);
  cmd.action(kit.verb(parseWait, runWaitVerb));
  return examples(cmd, [
    'svc sessions wait sesn_123 --timeout 10m',
    'svc sessions send sesn_123 --text "hi" && svc sessions wait sesn_123',
    'svc sessions wait --status running --agent ci-bot --timeout 30m --fail-fast',
  ]);
}

/** `svc sessions wait ID…|-|SELECTORS [--timeout D] [--fail-fast]`: one session, or `many` to select and wait on. */
export interface WaitOptions {
  session: string;
  timeoutMs?: number;
  failFast: boolean;
  many?: Picked;
}

export function parseWait(args: string[], flags: FlagsOf<typeof SESSION_WAIT_FLAGS>): WaitOptions {
  const p = pick(args, flags);
  const timeout = flags.timeout;
  const failFast = Boolean(flags.failFast);
  if (isSingle(p)) return { session: args[0], timeoutMs: parseDeadline(timeout), failFast };
  const timeoutMs = timeout === undefined ? undefined : parseDuration(timeout, '--timeout');
  return { session: args[0], timeoutMs, failFast, many: p };
}

export async function runWaitVerb(ctx: Ctx, o: WaitOptions): Promise<void> {
  if (!o.many) return runWait(ctx, o.session, o.timeoutMs);
  const targets = await targetsOf(ctx, await ctx.api(), o.many);
  const { runWaitMany } = await import('./wait-many');
  return runWaitMany(
    ctx,
    targets.map((t) => t.id),
    { timeoutMs: o.timeoutMs, failFast: o.failFast },
  );
}

export async function runWait(ctx: Ctx, sessionId: string, timeoutMs: number | undefined): Promise<void> {
  const { waitIdle } = await import('../../follow/wait-idle');
  const session = await waitIdle(ctx, await ctx.api(), sessionId, timeoutMs);
  await ctx.out.item(session);
}
