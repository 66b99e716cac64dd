import { sessions } from '../../api/sessions';
import type { Session } from '../../wire/resources';
import type { Ctx } from '../../runtime/context';
import { exitCodeFor, ExitCodeError, InterruptedError, SessionEndError, WaitTimeoutError, withNote } from '../../runtime/errors';
import { failureLine } from '../../output/error-line';
import { worstExit } from '../../session/state';
import { Channel } from '../../async/channel';
import { SESSION_COLUMNS } from './columns';

/** Streams open at once; the rest wait their turn (each starts with a read, so a settled one answers at once). */
const MAX_STREAMS = 64;

/**
 * `sessions wait` on many: the set is fixed at start; each session is printed as it settles, each failure is one
 * stderr line naming its session. Exit 0 when all are idle without error, else the worst of their codes by
 * `worstExit` (11 failed or terminated > 13 waiting > 12 interrupted > 124 the deadline came first); `failFast` stops
 * at the first that does not end idle.
 */
export async function runWaitMany(ctx: Ctx, ids: string[], o: { timeoutMs?: number; failFast: boolean; print?: boolean }): Promise<void> {
  if (ids.length === 0) return void (await ctx.msg('nothing matched'));
  const { waitIdle } = await import('../../follow/wait-idle');
  const c = await ctx.api();
  const stop = new AbortController();
  const timer = o.timeoutMs === undefined ? undefined : setTimeout(() => stop.abort('timeout'), o.timeoutMs);
  const signal = AbortSignal.any([stop.signal, ...(ctx.io.signal ? [ctx.io.signal] : [])]);
  const { Ctx: Context } = await import('../../runtime/context');
  const sub = new Context({ ...ctx.io, signal }, ctx.globals);
  const settled = new Channel<Session>();
  const pending = new Set(ids);
  const codes: number[] = [];
  let next = 0;
  const one = async (id: string) => {
    try {
      settled.push(await waitIdle(sub, c, id, undefined));
      pending.delete(id);
    } catch (e) {
      // Ended by the deadline, Ctrl-C or --fail-fast: the session is still pending. Whatever the wait was doing then
      // (a read cut short fails as a network error) is that ending, said once at the end, not a failure of the session.
      if (signal.aborted) return;
      pending.delete(id);
      codes.push(exitCodeFor(e));
      // A session's own ending names it; any other failure (not found, …) gets its ID beside the line.
      const named = e instanceof SessionEndError || typeof e !== 'object' || e === null ? e : withNote(e, `session ${id}`);
      await ctx.msg(failureLine(named, ctx.settings.output?.value));
      // A session that settled badly is printed as it settled; one that could not be read (not found) is not.
      if (e instanceof SessionEndError) settled.push(await sessions.get(c, id).catch(() => ({ id })));
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
  // `print: false` (a verb that printed its own results): the exit code and the failure lines only.
  if (o.print === false) for await (const _ of settled);
  else await ctx.out.list(settled, SESSION_COLUMNS);
  await all;
  if (ctx.io.signal?.aborted) throw new InterruptedError();
  const worst = worstExit(codes);
  if (worst) throw new ExitCodeError(worst, 'a session failed', true);
  if (pending.size) {
    const left = [...pending];
    throw new WaitTimeoutError(
      `${left.length} of ${ids.length} sessions still not settled after --timeout: ${left.slice(0, 10).join(', ')}${left.length > 10 ? ', …' : ''}`,
    );
  }
}
