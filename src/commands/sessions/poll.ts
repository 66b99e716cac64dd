import type { ApiClient } from '../../api/client';
import type { Session } from '../../wire/resources';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { InterruptedError } from '../../runtime/errors';
import { sleep } from '../../async/sleep';
import { CONTROL_EPOCH_PATTERN } from '../../wire/limits';

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 1000;

/**
 * Reads the session until `done` holds (the spec confirms control changes by reading). `deadline` (a command's
 * `--timeout`, src/follow/deadline.ts) ends the wait too, with its own error (exit 124).
 */
export async function pollSession(
  ctx: Ctx,
  c: ApiClient,
  sid: string,
  done: (s: Session) => boolean,
  deadline?: { signal: AbortSignal; failure: () => Error | undefined },
): Promise<Session> {
  for (let delay = FIRST_DELAY_MS; ; delay = Math.min(delay * 2, MAX_DELAY_MS)) {
    const s = await sessions.get(c, sid);
    if (done(s)) return s;
    if (ctx.io.signal?.aborted) throw new InterruptedError();
    if (!deadline) await ctx.sleep(delay);
    else if (!(await sleep(delay, deadline.signal, ctx.io.sleep))) throw deadline.failure() ?? new InterruptedError();
  }
}

/**
 * `a >= b` for control epochs, compared as digit strings: 19 digits exceed 2^53.
 * A value outside the spec's pattern cannot be ordered, so it does not hold a wait up.
 */
export function epochAtLeast(a: unknown, b: string): boolean {
  if (typeof a !== 'string' || !CONTROL_EPOCH_PATTERN.test(a) || !CONTROL_EPOCH_PATTERN.test(b)) return true;
  return a.length !== b.length ? a.length > b.length : a >= b;
}
