import type { Command } from 'commander';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import type { TailOptions } from '../../follow/options';
import { refuseDebugOnLiveView } from '../../cli/screen';
import { pickSession } from './pick';

/** `svc sessions tail SESSION`: the live view on a TTY, NDJSON events otherwise. */
export function addTail(group: Command, kit: Kit): Command {
  const cmd = group
    .command('tail')
    .description("Follow a session's events: the live view on a TTY, NDJSON when piped or with --no-live")
    .argument('<session>', 'session ID');
  addFlags(pickSession(cmd), SESSION_TAIL_FLAGS).action(kit.verb(parseTail, runTail));
  return examples(cmd, [
    'svc sessions tail sesn_123',
    'svc sessions tail sesn_123 --cursor now --deltas --no-live',
    'svc sessions tail sesn_123 --until idle > events.ndjson',
    'svc sessions tail sesn_123 --until idle --jq .type',
  ]);
}

/** `svc sessions tail`'s flags: --thread and the follow flags, which `threads tail` shares (a thread's tail ends with its session's turn). */
export const SESSION_TAIL_FLAGS = flagTable({
  thread: { flags: '--thread <thread>', description: "follow one thread's stream" },
  deltas: { flags: '--deltas', description: 'include agent.delta lines in the NDJSON (the live view shows previews by default: d hides them)' },
  cursor: { flags: '--cursor <cursor>', description: 'start after this frame id, or "now" for new events only (default: the whole history, then live)' },
  until: {
    flags: '--until <state>',
    description: 'exit once the session settles and its events are printed: 0 idle, 11 failed or terminated, 12 interrupted, 13 waiting on a reply',
    choices: ['idle'],
  },
  live: { flags: '--no-live', description: 'print NDJSON even on a terminal' },
});

/** `svc threads tail`'s flags (declared in ../threads/tail.ts): sessions tail's without --thread (THREAD is an argument), its cursor in the thread's stream. */
export const THREAD_TAIL_FLAGS = flagTable({
  deltas: SESSION_TAIL_FLAGS.deltas,
  cursor: { ...SESSION_TAIL_FLAGS.cursor, description: 'start after this frame id of the thread stream, or "now" (default: the thread\'s history, then live)' },
  until: SESSION_TAIL_FLAGS.until,
  live: SESSION_TAIL_FLAGS.live,
});
type TailFlags = FlagsOf<typeof SESSION_TAIL_FLAGS>;

/** The follow flags of both tails; threads tail has no --thread (its THREAD argument is `threadId`). */
export function tailOptions(sessionId: string, opts: TailFlags, threadId?: string): TailOptions {
  if (opts.cursor === '') throw new UsageError('--cursor needs a value: a frame id or "now"');
  return {
    sessionId,
    threadId: threadId ?? opts.thread,
    deltas: Boolean(opts.deltas),
    cursor: opts.cursor,
    untilIdle: opts.until === 'idle',
    noLive: opts.live === false,
  };
}

/** `svc sessions tail SESSION [--thread ID]` and the follow flags. */
export const parseTail = ([session]: string[], flags: TailFlags): TailOptions => tailOptions(session, flags);

/** `svc threads tail SESSION THREAD` and the follow flags. */
export const parseThreadTail = ([session, thread]: string[], flags: TailFlags): TailOptions => tailOptions(session, flags, thread);

/**
 * The view on a TTY; otherwise the events as lines (src/follow/ndjson.ts). `--jq` or an explicit `-o` (flag or
 * profile) asks for lines on a terminal too (docs/behaviour.md "Honest flags"): `-o table` one readable line per event.
 */
export async function runTail(ctx: Ctx, o: TailOptions): Promise<void> {
  const lines = ctx.settings.jq !== undefined || ctx.settings.output !== undefined;
  if (ctx.io.stdout.isTTY && !o.noLive && !lines) {
    refuseDebugOnLiveView(ctx);
    // The view loads the client itself, after its first frame.
    const { openLiveView } = await import('../../live/open');
    const { viewEnd } = await import('../../follow/outcome');
    viewEnd(await openLiveView({ ctx, sessionId: o.sessionId, threadId: o.threadId, cursor: o.cursor, deltas: true, untilIdle: o.untilIdle }));
    return;
  }
  const { tailNdjson } = await import('../../follow/ndjson');
  await tailNdjson(ctx, await ctx.api(), o);
}
