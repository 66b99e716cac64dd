import { describe, expect, it } from 'vitest';
import { waitSignal } from '../../src/follow/deadline';
import type { Ctx } from '../../src/runtime/context';
import { WaitTimeoutError } from '../../src/runtime/errors';

const ctx = { io: {} } as Ctx;
const aborted = (signal: AbortSignal) => new Promise<number>((r) => signal.addEventListener('abort', () => r(Date.now()), { once: true }));

describe('--timeout: the one deadline of a follow', () => {
  it('counts from when the command began, yet names the --timeout the user gave, not what an earlier step left of it', async () => {
    // An earlier step (a wind-down waited out) spent 400 ms of the 600.
    const since = Date.now() - 400;
    const w = waitSignal(ctx, 600, 'session s did not finish the turn', since);
    const at = await aborted(w.signal);
    w.dispose();
    expect(at - since).toBeGreaterThanOrEqual(595);
    // Counted from the call instead, it would end 1,000 ms after `since`.
    expect(at - since).toBeLessThan(900);
    expect(w.failure()).toEqual(new WaitTimeoutError('session s did not finish the turn after 0.6s (--timeout)'));
  });

  it('spent already: ends at once, still naming the given --timeout', async () => {
    const w = waitSignal(ctx, 200, 'x', Date.now() - 1_000);
    await aborted(w.signal);
    w.dispose();
    expect(w.failure()?.message).toBe('x after 0.2s (--timeout)');
  });
});
