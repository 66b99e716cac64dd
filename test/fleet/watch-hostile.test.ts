// A watch on a bad day: a hostile clock, a hostile Retry-After, a restart of the service. The service is a small
// stand-in on loopback whose sessions' `updated_at` a test sets at will (the emulator stamps real time).
import { afterEach, describe, expect, it } from 'vitest';
import { Capture, ndjson, tempConfigDir } from '../helpers/cli';
import { main } from '../../src/cli/main';
import { PassThrough } from 'node:stream';
import { useLoopback, type Seen } from '../api/loopback';
import { waitUntil } from '../helpers/sse';

const service = useLoopback();
const running: AbortController[] = [];
afterEach(() => {
  for (const c of running.splice(0)) c.abort();
});

interface Fake {
  sessions: Array<Record<string, unknown>>;
  lists: Seen[];
  /** Answers the next requests this way instead of listing. */
  refuse: Array<(res: import('node:http').ServerResponse) => void>;
}

function fakeService(): Fake {
  const f: Fake = { sessions: [], lists: [], refuse: [] };
  service.handle = (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname !== '/v1/sessions') return void res.writeHead(404).end();
    f.lists.push(req);
    const refusal = f.refuse.shift();
    if (refusal) return refusal(res);
    const after = url.searchParams.get('updated_at_gt');
    const items = f.sessions.filter((s) => after === null || Date.parse(String(s.updated_at)) > Date.parse(after));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items, next_page_token: null }));
  };
  return f;
}

const session = (id: string, updatedAt: number) => ({
  id,
  type: 'session',
  status: 'idle',
  agent_id: 'agent_1',
  metadata: {},
  created_at: new Date(Date.now() - 60_000).toISOString(),
  updated_at: new Date(updatedAt).toISOString(),
  archived_at: null,
});

/** `svc sessions list -w` in-process; every wait svc takes is recorded and lasts `realMs`. */
function watchCmd(args: string[], realMs = 5) {
  return svcCmd(['sessions', 'list', '-w', ...args], realMs);
}

function svcCmd(args: string[], realMs = 5) {
  const stdin = new PassThrough();
  stdin.end();
  const stdout = new Capture();
  const stderr = new Capture();
  const ctrlC = new AbortController();
  running.push(ctrlC);
  const waits: number[] = [];
  const sleep = (ms: number) => {
    waits.push(ms);
    return new Promise<void>((r) => setTimeout(r, realMs));
  };
  const env = { SVC_CONFIG_DIR: tempConfigDir(), SVC_BASE_URL: service.url, SVC_API_KEY: 'sk_watch', SVC_MAX_RETRIES: '0' };
  const code = main(args, { stdin, stdout, stderr, env, cwd: process.cwd(), signal: ctrlC.signal, sleep });
  return { stdout, stderr, ctrlC, code, waits, events: () => ndjson(stdout.text) };
}

const throttled = (retryAfter: string) => (res: import('node:http').ServerResponse) =>
  res
    .writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter })
    .end(JSON.stringify({ error: { type: 'rate_limit_reached_error', message: 'slow down' } }));

describe('sessions list -w on a bad day', () => {
  it('one session updated in the future hides no change: the next session shows at the next poll, the future one once', async () => {
    const f = fakeService();
    f.sessions.push(session('sesn_future', Date.parse('2100-01-01T00:00:00Z')), session('sesn_old', Date.now() - 30_000));
    const w = watchCmd(['--interval', '10ms']);
    await waitUntil(() => w.events().length === 2, 'the initial list');
    const before = f.lists.length;
    f.sessions.push(session('sesn_new', Date.now()));
    await waitUntil(() => w.events().some((e) => e.object.id === 'sesn_new'), 'ADDED for the new session');
    // Far fewer than the 30 polls to the next full listing; the overlap re-listed the future session without a row.
    expect(f.lists.length - before).toBeLessThanOrEqual(3);
    expect(w.events().filter((e) => e.object.id === 'sesn_future')).toHaveLength(1);
    expect(f.lists.at(-1)!.url).toMatch(/updated_at_gt=/);
    w.ctrlC.abort();
    expect(await w.code).toBe(130);
  });

  for (const [name, value] of [
    ['0', '0'],
    ['3000000', '3000000'],
    ['an HTTP date in 2100', 'Fri, 01 Jan 2100 00:00:00 GMT'],
  ] as const) {
    it(`R-LIMIT-7 a Retry-After of ${name} is clamped: every wait between the back-off and 60 s, one notice each, and the watch goes on`, async () => {
      const f = fakeService();
      f.sessions.push(session('sesn_a', Date.now() - 10_000));
      // Polls a millisecond apart: every longer wait is a retry's.
      const w = watchCmd(['--interval', '1ms']);
      await waitUntil(() => w.events().length === 1, 'the initial list');
      f.refuse.push(...Array.from({ length: 5 }, () => throttled(value)));
      const before = f.lists.length;
      await waitUntil(() => f.lists.length - before >= 7, 'the watch to get through the 429s');
      f.sessions.push(session('sesn_b', Date.now()));
      await waitUntil(() => w.events().some((e) => e.object.id === 'sesn_b'), 'the change after the 429s');
      const retries = w.waits.filter((ms) => ms > 1);
      expect(retries.length).toBeGreaterThanOrEqual(5);
      for (const ms of retries) {
        expect(ms).toBeGreaterThanOrEqual(500);
        expect(ms).toBeLessThanOrEqual(60_000);
      }
      expect(w.stderr.text.match(/reconnecting \(attempt \d+\) in \d+s: slow down/g)).toHaveLength(5);
      w.ctrlC.abort();
      expect(await w.code).toBe(130);
    });
  }

  it('a restart of the service (no answer, then 503s) is retried with a notice until it answers, not exit 10', async () => {
    const f = fakeService();
    f.sessions.push(session('sesn_a', Date.now() - 10_000));
    const w = watchCmd(['--interval', '10ms']);
    await waitUntil(() => w.events().length === 1, 'the initial list');
    f.refuse.push(
      (res) => res.socket?.destroy(),
      (res) => res.socket?.destroy(),
      (res) => res.writeHead(503, { 'content-type': 'text/plain' }).end('restarting'),
    );
    await waitUntil(() => f.refuse.length === 0 && f.lists.length > 4, 'the restart');
    f.sessions.push(session('sesn_b', Date.now()));
    await waitUntil(() => w.events().some((e) => e.object.id === 'sesn_b'), 'the change after the restart');
    expect(w.stderr.text.match(/^reconnecting \(attempt \d\) in \d+s: /gm)).toHaveLength(3);
    // Nothing was listed twice: the full listing after the outage compared, not re-emitted.
    expect(w.events().filter((e) => e.object.id === 'sesn_a')).toHaveLength(1);
    w.ctrlC.abort();
    expect(await w.code).toBe(130);
  });

  it('a refusal is not retried: a 401 ends the watch with its exit code', async () => {
    const f = fakeService();
    f.refuse.push((res) =>
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'authentication_error', message: 'bad key' } })),
    );
    const w = watchCmd([]);
    expect(await w.code).toBe(4);
    expect(f.lists).toHaveLength(1);
  });
});

describe('listen on a 429', () => {
  it('R-LIMIT-7 lists the sessions again no sooner than the Retry-After asks', async () => {
    const f = fakeService();
    f.refuse.push(throttled('7'), throttled('7'));
    const l = svcCmd(['listen', '--exec', 'true', '--interval', '10ms']);
    await waitUntil(() => f.lists.length >= 3, 'the third listing');
    expect(l.stderr.text).toMatch(/listing sessions failed: slow down; trying again in 7s/);
    const retries = l.waits.filter((ms) => ms >= 1000);
    expect(retries.length).toBeGreaterThanOrEqual(2);
    for (const ms of retries) expect(ms).toBeGreaterThanOrEqual(7000);
    l.ctrlC.abort();
    await l.code;
  });
});
