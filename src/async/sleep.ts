/** The longest delay a timer takes: Node fires a longer one at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The one abortable sleep: resolves after `ms`, or at once when `signal` aborts, and never rejects; true when the time
 * ran out, false when the signal ended it. `by` is an injected sleep (a test's clock) to wait on instead of a timer; it
 * is not called when the signal has aborted already. A delay too long for a timer (Infinity) waits for the signal alone.
 */
export async function sleep(ms: number, signal?: AbortSignal, by?: (ms: number) => Promise<unknown>): Promise<boolean> {
  if (signal?.aborted) return false;
  if (by) return untilAborted(by(ms), signal);
  if (ms > MAX_TIMER_MS) return untilAborted(new Promise(() => {}), signal);
  // A timer of the global setTimeout, cleared when the signal wins: node:timers/promises would load a module on every
  // command that can retry, to do the same.
  let timer: NodeJS.Timeout | undefined;
  const ran = await untilAborted(new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, ms)))), signal);
  clearTimeout(timer);
  return ran;
}

/** `wait` raced against `signal`, whose listener is removed either way. */
function untilAborted(wait: Promise<unknown>, signal: AbortSignal | undefined): Promise<boolean> {
  if (!signal) return wait.then(() => true);
  return new Promise((resolve, reject) => {
    const end = (ran: boolean) => {
      signal.removeEventListener('abort', onAbort);
      resolve(ran);
    };
    const onAbort = () => end(false);
    signal.addEventListener('abort', onAbort, { once: true });
    wait.then(
      () => end(!signal.aborted),
      (e: unknown) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}
