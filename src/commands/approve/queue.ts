/** `svc approve [selectors]`: the queue of awaited confirmations, on a terminal (src/approve/view) or `--list`. */
import { flagTable, type FlagsOf } from '../../cli/flags';
import { refuseDebugOnScreen } from '../../cli/screen';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { parseDuration } from '../../text/duration';
import { approveSelectors, type SessionSelectors } from '../../approve/selection';
import { SELECTOR_FLAGS } from '../sessions/selectors';

export interface QueueOptions {
  selectors: SessionSelectors;
  list: boolean;
  readonly: boolean;
  intervalMs: number;
}

/** `svc approve`'s flags: the selectors, and how the queue is shown. */
export const APPROVE_FLAGS = flagTable({
  ...SELECTOR_FLAGS,
  list: { flags: '--list', description: 'print the queue once (a table, or -o json) instead of the live view' },
  readonly: { flags: '--readonly', description: 'show the queue without the keys that answer (y, n)' },
  interval: { flags: '--interval <duration>', description: 'how often the queue is read again (default 2s)' },
});

export function parseQueue(args: string[], f: FlagsOf<typeof APPROVE_FLAGS>): QueueOptions {
  if (args.length) throw new UsageError(`unknown approve command "${args[0]}": use lint, test or serve, or select sessions with --agent, -l, …`);
  if (f.list && (f.readonly || f.interval !== undefined))
    throw new UsageError('--list prints the queue once: --readonly and --interval are for the terminal queue');
  return {
    selectors: approveSelectors(f),
    list: Boolean(f.list),
    readonly: Boolean(f.readonly),
    intervalMs: parseDuration(String(f.interval ?? '2s'), '--interval'),
  };
}

export async function runQueue(ctx: Ctx, o: QueueOptions): Promise<void> {
  if (o.list) return listQueue(ctx, o);
  if (!ctx.io.stdout.isTTY) throw new UsageError('svc approve shows a live queue on a terminal; off one, use svc approve --list -o json');
  const { output, quiet, jq } = ctx.globals;
  if (output !== undefined || quiet || jq !== undefined) throw new UsageError('svc approve draws a queue: -o, -q and --jq go with --list');
  refuseDebugOnScreen(ctx, 'queue', 'send it to a file (svc approve --debug 2>debug.log)');
  ctx.apiKey();
  const { openQueue } = await import('../../approve/view/open');
  await openQueue({ ctx, client: await ctx.api(), selectors: o.selectors, intervalMs: o.intervalMs, readonly: o.readonly });
}

async function listQueue(ctx: Ctx, o: QueueOptions): Promise<void> {
  const { QueueReader } = await import('../../approve/feed');
  const now = ctx.now();
  const items = await new QueueReader(await ctx.api(), o.selectors).read(now, ctx.io.signal);
  const rows = items.map((i) => ({
    session_id: i.sessionId,
    title: i.title ?? null,
    agent: i.agent,
    event_id: i.eventId,
    tool: i.tool,
    input: i.input,
    thread: i.threadId ?? null,
    asked_at: new Date(i.askedAt).toISOString(),
    waiting_s: Math.max(0, Math.round((now - i.askedAt) / 1000)),
  }));
  if (!rows.length) await ctx.msg('no confirmation awaited');
  await ctx.out.list(rows, [
    { header: 'SESSION', get: (r) => r.session_id },
    { header: 'AGENT', get: (r) => r.agent },
    { header: 'TOOL', get: (r) => r.tool },
    { header: 'EVENT', get: (r) => r.event_id },
    { header: 'THREAD', get: (r) => (r.thread ? 'child' : 'main') },
    { header: 'WAITING', get: (r) => `${r.waiting_s}s` },
  ]);
}
