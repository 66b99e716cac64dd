import { parseSeconds } from '../config/settings';
import type { Ctx } from '../runtime/context';
import { InterruptedError, WaitTimeoutError } from '../runtime/errors';

/** `--timeout D`: 10m, 30s, 1h or plain seconds; checked before any request (exit 2). */
export function parseDeadline(v: string | undefined): number | undefined {
  return v === undefined ? undefined : parseSeconds(v, '--timeout') * 1000;
}

/**
 * One abort signal for a follow: Ctrl-C (exit 130) or the deadline, `ms` after `since` (exit 124, naming the `ms` the
 * user gave, however much of it an earlier step spent). `failure()` says which ended it, for the command to throw once
 * the stream has closed.
 */
export function waitSignal(
  ctx: Ctx,
  ms: number | undefined,
  what: string,
  since = Date.now(),
): { signal: AbortSignal; failure: () => Error | undefined; dispose: () => void } {
  const timer = new AbortController();
  const t = ms === undefined ? undefined : setTimeout(() => timer.abort(), Math.max(1, since + ms - Date.now()));
  const signals = [timer.signal, ...(ctx.io.signal ? [ctx.io.signal] : [])];
  return {
    signal: AbortSignal.any(signals),
    failure: () => {
      if (ctx.io.signal?.aborted) return new InterruptedError();
      if (timer.signal.aborted) return new WaitTimeoutError(`${what} after ${formatMs(ms!)} (--timeout)`);
      return undefined;
    },
    dispose: () => clearTimeout(t),
  };
}

function formatMs(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${ms / 1000}s`;
}
