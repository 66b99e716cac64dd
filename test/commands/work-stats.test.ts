// svc work stats: the queue of an environment by state, -w, --serve.
import { describe, expect, it } from 'vitest';
import { queueCounts, workRow } from '../../src/top/rows';
import { emuEnv, ndjson, svc } from '../helpers/cli';
import { requestCount, useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';
import { rowsOf, selfHostedEnvironment } from '../worker/helpers';
import { Capture } from '../helpers/cli';
import { PassThrough } from 'node:stream';

const t = useEmulator({ leaseTtlMs: 60_000 });

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** Rows straight into the emulator's store: `n` queued (the oldest `oldestMs` old), and a few in other states. */
async function queue(n: number, oldestMs = 300_000): Promise<{ id: string; key: string }> {
  const env = await selfHostedEnvironment(t.emu);
  const rows = t.emu.collection<any>('work_rows', 'work', 'work row');
  const row = (status: string, extra: Record<string, unknown> = {}) =>
    rows.insert({ session_id: `sesn_${Math.random().toString(36).slice(2)}`, environment_id: env.id, status, generation: 1, lease_ttl_ms: 60_000, ...extra });
  for (let i = 0; i < n; i++) row('queued', { created_at: ago(i === 0 ? oldestMs : 1000) });
  row('active', { acknowledged_at: ago(5000), latest_heartbeat_at: ago(1000) });
  row('starting', { acknowledged_at: ago(2000) });
  // A lease two minutes past its renewal with a one-minute TTL: stale.
  row('active', { acknowledged_at: ago(200_000), latest_heartbeat_at: ago(120_000) });
  row('completed');
  row('cancelled');
  return env;
}

describe('svc work stats', () => {
  it('counts the queue by state: queued, leased, stale, the oldest queued age and demand; -o json for scripts', async () => {
    const env = await queue(3);
    const r = await svc(['work', 'stats', env.id, '-o', 'json'], { env: emuEnv(t.emu) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({
      environment_id: env.id,
      queued: 3,
      leased: 3,
      stale: 1,
      demand: 6,
      rows: 8,
      by_status: { queued: 3, starting: 1, active: 2, stopping: 0, completed: 1, failed: 0, cancelled: 1 },
    });
    expect(s.oldest_queued_age_seconds).toBeGreaterThanOrEqual(300);
    expect(s.oldest_queued_age_seconds).toBeLessThan(400);
  });

  it("agrees with svc top's work view: both count with queueCounts over the same rows", async () => {
    const env = await queue(4);
    const r = await svc(['work', 'stats', env.id, '-o', 'json'], { env: emuEnv(t.emu) });
    const s = JSON.parse(r.stdout);
    // What the board's header counts from its work rows (src/top/components/Header.tsx).
    const board = queueCounts((await rowsOf(t.emu, env.id)).map(workRow), Date.now());
    expect({ queued: s.queued, leased: s.leased, stale: s.stale, rows: s.rows, by_status: s.by_status }).toEqual({
      queued: board.queued,
      leased: board.leased,
      stale: board.stale,
      rows: board.rows,
      by_status: board.byStatus,
    });
  });

  it('pages the rows once, one request a page of 1000: 2 500 rows cost 3 requests', async () => {
    const env = await queue(2495);
    const before = await requestCount(t.emu);
    const r = await svc(['work', 'stats', env.id, '-o', 'json', '--jq', '.rows'], { env: emuEnv(t.emu) });
    expect(r.stdout.trim()).toBe('2500');
    expect((await requestCount(t.emu)) - before).toBe(3);
  });

  it('takes the environment by name with the API key, and prints a table on a terminal', async () => {
    const env = await queue(1);
    const name = (await svc(['environments', 'get', env.id, '--jq', '.name'], { env: emuEnv(t.emu) })).stdout.trim();
    const r = await svc(['work', 'stats', name, '-o', 'table'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    const [header, line] = r.stdout.trim().split('\n');
    expect(header.split(/\s{2,}/)).toEqual(['ENVIRONMENT', 'QUEUED', 'LEASED', 'STALE', 'OLDEST QUEUED', 'DEMAND', 'ROWS']);
    expect(line.split(/\s+/).slice(0, 4)).toEqual([env.id, '1', '3', '1']);
  });

  it('-w counts again every --interval, one JSON line a pass off a terminal, and ends 0 at --timeout', async () => {
    const env = await queue(2);
    const r = await svc(['work', 'stats', env.id, '-w', '--interval', '50ms', '--timeout', '400ms'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    const passes = ndjson(r.stdout);
    expect(passes.length).toBeGreaterThan(1);
    for (const p of passes) expect(p).toMatchObject({ environment_id: env.id, queued: 2 });
  });

  it('--serve answers the JSON over HTTP, counting at most once an interval; SIGTERM ends it with 0, Ctrl-C with 130', async () => {
    const env = await queue(5);
    for (const [reason, code] of [
      ['SIGTERM', 0],
      ['SIGINT', 130],
    ] as const) {
      const ac = new AbortController();
      const stderr = new Capture();
      const { main } = await import('../../src/cli/main');
      const done = main(['work', 'stats', env.id, '--serve', '127.0.0.1:0', '--interval', '1h'], {
        stdin: new PassThrough().end(),
        stdout: new Capture(),
        stderr,
        env: { SVC_CONFIG_DIR: (await import('../helpers/cli')).tempConfigDir(), ...emuEnv(t.emu) },
        cwd: process.cwd(),
        signal: ac.signal,
      });
      const url = await waitUntil(() => /on (http:\/\/\S+?)\/ /.exec(stderr.text)?.[1], 'the address on stderr');
      const before = await requestCount(t.emu);
      const answers = await Promise.all([fetch(`${url}/`), fetch(`${url}/stats`), fetch(`${url}/`)]);
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.headers.get('content-type')).toBe('application/json');
        expect(await a.json()).toMatchObject({ environment_id: env.id, queued: 5, demand: 8 });
      }
      // Three scrapes within the interval: one pass, one page.
      expect((await requestCount(t.emu)) - before).toBe(1);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      ac.abort(reason);
      expect(await done).toBe(code);
    }
  });

  it('flags that cannot work together are exit 2 before any request', async () => {
    const before = await requestCount(t.emu);
    const cases: Array<[string[], RegExp]> = [
      [['--serve', '127.0.0.1:0', '-w'], /--serve and --watch/],
      [['--serve', 'nowhere'], /--serve takes HOST:PORT/],
      [['--interval', '5s'], /--interval applies with --watch or --serve/],
      [['--timeout', '5s'], /--timeout applies with --watch/],
      [['-q'], /have no ID/],
    ];
    for (const [flags, message] of cases) {
      const r = await svc(['work', 'stats', 'env_x', ...flags], { env: emuEnv(t.emu) });
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
    expect(await requestCount(t.emu)).toBe(before);
  });
});
