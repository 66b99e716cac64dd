// svc top against the service's own 429s with a hostile Retry-After: every wait the board takes is clamped between
// the back-off and 60 s (it once retried every millisecond, and a 3 000 000 s wait overflowed the timer).
import { afterEach, describe, expect, it } from 'vitest';
import { parseTop } from '../../src/commands/top/parse';
import { runTop } from '../../src/commands/top/run';
import type { GlobalOptions } from '../../src/config/settings';
import { Ctx } from '../../src/runtime/context';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { createSession, waitUntil } from '../helpers/sse';
import { ttyCtx } from '../live/tty';

const t = useEmulator({ modelStepMs: 5 });
let stop: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
  await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
});

/** The board in-process; every wait it takes is recorded and lasts 5 ms of real time. */
function board() {
  const { ctx: base, stdin, stdout } = ttyCtx(t.emu);
  const waits: number[] = [];
  const sleep = (ms: number) => {
    waits.push(ms);
    return new Promise<void>((r) => setTimeout(r, 5));
  };
  const ctx = new Ctx({ ...base.io, sleep }, {} as GlobalOptions);
  const ended = runTop(ctx, parseTop([], { interval: '100ms' })).catch(() => undefined);
  stop = () => (stdin.press('q'), ended);
  return { waits, stdout };
}

describe('svc top on a hostile Retry-After', () => {
  for (const [name, retryAfter] of [
    ['0', 0],
    ['3000000', 3_000_000],
  ] as const) {
    it(`R-LIMIT-7 Retry-After ${name}: every wait between the back-off and 60 s, the header says it is retrying`, async () => {
      await createSession(t.emu, { title: 'before-429' });
      await call(t.emu, 'POST', '/_emulator/faults', { body: { rate_limit_every: 1, retry_after: retryAfter } });
      const before = await requestCount(t.emu);
      const b = board();
      await waitUntil(() => b.waits.length >= 12, 'a dozen waits', 20_000);
      const requests = (await requestCount(t.emu)) - before;
      for (const ms of b.waits) {
        expect(ms).toBeGreaterThanOrEqual(100);
        expect(ms).toBeLessThanOrEqual(60_000);
      }
      // Each request is followed by a wait: no burst between two.
      expect(requests).toBeLessThanOrEqual(b.waits.length + 4);
      expect(b.stdout.plain).toMatch(/retry \d+ in \d+s/);
    });
  }
});
