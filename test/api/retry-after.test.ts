// Retry-After, read in one place (src/api/retry-after.ts) and clamped in one (peerWaitMs), over real HTTP.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { retryAfterMs } from '../../src/api/retry-after';
import { retryAfterMs as forwardRetryAfterMs } from '../../src/listen/forward';
import { useLoopback } from './loopback';

const NOW = Date.parse('2030-01-01T00:00:00Z');

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    expect(retryAfterMs('3', NOW)).toBe(3000);
    expect(retryAfterMs(' 0 ', NOW)).toBe(0);
    expect(retryAfterMs('Tue, 01 Jan 2030 00:00:30 GMT', NOW)).toBe(30_000);
    expect(retryAfterMs('Mon, 31 Dec 2029 00:00:00 GMT', NOW)).toBe(0);
    expect(retryAfterMs('Fri, 01 Jan 2100 00:00:00 GMT', NOW)).toBeGreaterThan(60_000 * 60 * 24 * 365);
    for (const bad of [undefined, '', 'soon', '1.5', '-3', '12abc']) expect(retryAfterMs(bad, NOW)).toBeUndefined();
    // listen's forwarder reads it through the same function.
    expect(forwardRetryAfterMs).toBe(retryAfterMs);
  });
});

describe('the API client on a hostile Retry-After', () => {
  const service = useLoopback();
  function client() {
    const waits: number[] = [];
    const c = new ApiClient({
      baseUrl: service.url,
      credential: 'sk_x',
      apiVersion: '2026-09-01-beta',
      userAgent: 'svc/test',
      maxRetries: 3,
      sleep: async (ms) => void waits.push(ms),
    });
    return { c, waits };
  }
  const throttle = (retryAfter: string, times: number) => {
    let n = 0;
    service.handle = (_req, res) => {
      if (n++ < times) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter });
        res.end(JSON.stringify({ error: { type: 'rate_limit_reached_error', message: 'slow down' } }));
      } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"x"}');
    };
  };

  it('R-LIMIT-7 a Retry-After of 0 waits the back-off, not nothing', async () => {
    throttle('0', 2);
    const { c, waits } = client();
    await c.json({ method: 'GET', path: '/v1/agents/x' });
    expect(waits).toHaveLength(2);
    for (const w of waits) expect(w).toBeGreaterThanOrEqual(125);
  });

  it('R-LIMIT-7 a Retry-After given as an HTTP date is waited out like seconds', async () => {
    throttle(new Date(Date.now() + 20_000).toUTCString(), 1);
    const { c, waits } = client();
    await c.json({ method: 'GET', path: '/v1/agents/x' });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(18_000);
    expect(waits[0]).toBeLessThanOrEqual(60_000);
  });

  it('an HTTP date in 2100 gives up at once (exit 8) instead of waiting or flooding', async () => {
    throttle('Fri, 01 Jan 2100 00:00:00 GMT', 10);
    const { c, waits } = client();
    const e = await c.json({ method: 'GET', path: '/v1/agents/x' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(429);
    expect(waits).toHaveLength(0);
  });
});
