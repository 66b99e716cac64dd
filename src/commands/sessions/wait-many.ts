import { sessions } from '../../api/sessions';
import type { Obj } from '../../api/resources';
import type { Ctx } from '../../context';
import { errorLine, exitCodeFor, ExitCodeError, InterruptedError, SessionFailedError, WaitTimeoutError } from '../../errors';
import { Channel } from '../../fleet/channel';
import { SESSION_COLUMNS } from './columns';

/** Streams open at once; the rest wait their turn (each starts with a read, so a settled one answers at once). */
const MAX_STREAMS = 64;

/**
 * `sessions wait` on many: the set is fixed at start; each session is printed as it settles. Exit 0 when all are
 * idle without error, 11 when any failed (at the first with `failFast`), 124 when the deadline came first.
 */
export async function runWaitMany(ctx: Ctx, ids: string[], o: { timeoutMs?: number; failFast: boolean }): Promise<void> {
  if (ids.length === 0) return void (await ctx.msg('nothing matched'));
  const { waitIdle } = await import('../../follow/wait-idle');
  const c = await ctx.api();
  const stop = new AbortController();
  const timer = o.timeoutMs === undefined ? undefined : setTimeout(() => stop.abort('timeout'), o.timeoutMs);
  const signal = AbortSignal.any([stop.signal, ...(ctx.io.signal ? [ctx.io.signal] : [])]);
  const { Ctx: Context } = await import('../../context');
  const sub = new Context({ ...ctx.io, signal }, ctx.globals);
  const settled = new Channel<Obj>();
  const pending = new Set(ids);
  let failure: unknown;
  let next = 0;
  const one = async (id: string) => {
    try {
      settled.push(await waitIdle(sub, c, id, undefined));
      pending.delete(id);
    } catch (e) {
      // Ended by the deadline, Ctrl-C or --fail-fast: the session is still pending.
      if (signal.aborted && (e instanceof InterruptedError || e instanceof WaitTimeoutError)) return;
      pending.delete(id);
      failure ??= e;
      await ctx.msg(errorLine(e));
      // A failed turn is printed as it settled; a session that could not be read (not found) is not.
      if (e instanceof SessionFailedError) settled.push(await sessions.get(c, id).catch(() => ({ id })));
      if (o.failFast) stop.abort('fail-fast');
    }
  };
  const worker = async () => {
    while (next < ids.length && !signal.aborted) await one(ids[next++]);
  };
  const all = Promise.all(Array.from({ length: Math.min(MAX_STREAMS, ids.length) }, worker)).finally(() => {
    clearTimeout(timer);
    settled.close();
  });
  await ctx.out.list(settled, SESSION_COLUMNS);
  await all;
  if (ctx.io.signal?.aborted) throw new InterruptedError();
  if (failure) throw new ExitCodeError(exitCodeFor(failure), 'a session failed', true);
  if (pending.size) {
    const left = [...pending];
    throw new WaitTimeoutError(
      `${left.length} of ${ids.length} sessions still not settled after --timeout: ${left.slice(0, 10).join(', ')}${left.length > 10 ? ', …' : ''}`,
    );
  }
}
