// The worker's /metrics, /healthz and /readyz (`svc worker run --metrics-addr`).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client';
import { follow } from '../../src/api/stream/resumable';
import { runWorker, type WorkerOptions } from '../../src/worker/index';
import type { Clock } from '../../src/worker/clock';
import { API_VERSION } from '../../src/wire/version';
import { Capture, svc, tempConfigDir } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';
import { describeWith } from '../helpers/requires';
import { waitUntil } from '../helpers/sse';
import { closeServers, listen, recordSessionTokens, rowsOf, selfHostedEnvironment, toolSession, waitRow, workdir } from './helpers';

const t = useEmulator({ leaseTtlMs: 1500, deliveryWindowMs: 3000, modelStepMs: 2 });
afterAll(closeServers);

/** The samples of a Prometheus text page: `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
};

/** The status server's base URL, from the worker's JSON log line that announces it. */
const statusUrl = (stderr: Capture | { text: string }) =>
  waitUntil(() => {
    const line = stderr.text.split('\n').find((l) => l.includes('metrics and health served'));
    return line ? (JSON.parse(line).metrics as string).replace(/\/metrics$/, '') : undefined;
  }, 'the metrics address in the log');

function startWorker(envKey: string, args: string[], signal: AbortSignal) {
  const stderr = new Capture();
  const env = { SVC_BASE_URL: t.emu.url, SVC_ENVIRONMENT_KEY: envKey, SVC_CONFIG_DIR: tempConfigDir(), PATH: process.env.PATH };
  const done = import('../../src/cli/main').then(({ main }) =>
    main(['worker', 'run', ...args, '--log-format', 'json'], {
      stdin: new PassThrough().end(),
      stdout: new Capture(),
      stderr,
      env,
      cwd: process.cwd(),
      signal,
    }),
  );
  return { stderr, done };
}

let scraped: string | undefined;

describe('svc worker run --metrics-addr', () => {
  it('serves counters that match the work done: rows claimed and completed, tool calls by tool and outcome, polls; no session ID in any label', async () => {
    recordSessionTokens(t.emu);
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const ac = new AbortController();
    const w = startWorker(env.key, ['--environment', env.id, '--workdir', dir, '--concurrency', '2', '--metrics-addr', '127.0.0.1:0'], ac.signal);
    const base = await statusUrl(w.stderr);
    expect(w.stderr.text).toMatch(/"address":"127\.0\.0\.1:\d+"/);
    expect(base).not.toMatch(/:0$/);
    const sids = [
      await toolSession(t.emu, env.id, '/tool bash {"command":"echo one"}'),
      await toolSession(t.emu, env.id, '/tool read {"path":"missing.txt"}'),
      await toolSession(t.emu, env.id, '/tool teleport {"to":"mars"}'),
    ];
    for (const sid of sids) await waitRow(t.emu, env.id, sid, (r) => r.status === 'completed', 'every row to complete');
    const m = await get(`${base}/metrics`);
    expect(m.status).toBe(200);
    expect(m.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    scraped = m.body;
    const s = samples(m.body);
    expect(s.get('svc_worker_rows_claimed_total')).toBe(3);
    expect(s.get('svc_worker_rows_completed_total')).toBe(3);
    expect(s.get('svc_worker_rows_failed_total')).toBe(0);
    expect(s.get('svc_worker_rows_stopped_total')).toBe(0);
    expect(s.get('svc_worker_leases_lost_total')).toBe(0);
    expect(s.get('svc_worker_rows_in_flight')).toBe(0);
    expect(s.get('svc_worker_tool_calls_total{tool="bash",outcome="ok"}')).toBe(1);
    expect(s.get('svc_worker_tool_calls_total{tool="read",outcome="error"}')).toBe(1);
    // An unknown tool name is bounded to "other": a label never carries what an agent made up.
    expect(s.get('svc_worker_tool_calls_total{tool="other",outcome="error"}')).toBe(1);
    expect(s.get('svc_worker_tool_duration_seconds_count{tool="bash"}')).toBe(1);
    expect(s.get('svc_worker_tool_duration_seconds_bucket{tool="bash",le="+Inf"}')).toBe(1);
    expect(s.get('svc_worker_polls_total{outcome="claimed"}')).toBe(3);
    expect(s.get('svc_worker_polls_total{outcome="error"}')).toBe(0);
    expect(s.get('svc_worker_last_successful_poll_timestamp_seconds')).toBeGreaterThan(Date.now() / 1000 - 600);
    expect([...s.keys()].some((k) => k.startsWith('svc_build_info{version="'))).toBe(true);
    for (const sid of sids) expect(m.body).not.toContain(sid);
    for (const row of await rowsOf(t.emu, env.id)) expect(m.body).not.toContain(row.id);
    for (const secret of [env.key, ...recordSessionTokens(t.emu).tokens.map((x) => x.token)]) expect(m.body).not.toContain(secret);
    expect(await get(`${base}/healthz`)).toMatchObject({ status: 200, body: 'ok\n' });
    expect(await get(`${base}/readyz`)).toMatchObject({ status: 200, body: 'ok\n' });
    expect((await get(`${base}/nothing`)).status).toBe(404);
    ac.abort('SIGTERM');
    expect(await w.done).toBe(0);
    // The server ends with the worker.
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });

  it('counts an --on-work hand-off: its exit code and how long it ran', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const cmd = join(dir, 'cmd.sh');
    writeFileSync(cmd, `#!/bin/sh\nexec "${process.execPath}" "${join(process.cwd(), 'bin', 'svc.js')}" worker serve --workdir "${dir}"\n`, { mode: 0o755 });
    const ac = new AbortController();
    const w = startWorker(env.key, ['--environment', env.id, '--workdir', dir, '--on-work', cmd, '--metrics-addr', '127.0.0.1:0'], ac.signal);
    const base = await statusUrl(w.stderr);
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo handed"}');
    await waitRow(t.emu, env.id, sid, (r) => r.status === 'completed', 'the row to complete', 20_000);
    const s = samples((await get(`${base}/metrics`)).body);
    expect(s.get('svc_worker_on_work_exits_total{code="0"}')).toBe(1);
    expect(s.get('svc_worker_on_work_duration_seconds_count')).toBe(1);
    expect(s.get('svc_worker_rows_completed_total')).toBe(1);
    ac.abort('SIGTERM');
    expect(await w.done).toBe(0);
  }, 30_000);

  it('--metrics-addr that is not HOST:PORT is exit 2 before any request', async () => {
    const r = await svc(['worker', 'run', '--environment', 'env_1', '--metrics-addr', 'localhost'], {
      env: { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_ENVIRONMENT_KEY: 'ek_x' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --metrics-addr takes HOST:PORT .*got "localhost"/);
    const g = await svc(['worker', 'run', '--environment', 'env_1', '--grace', 'soon'], {
      env: { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_ENVIRONMENT_KEY: 'ek_x' },
    });
    expect(g.code).toBe(2);
    expect(g.stderr).toMatch(/^error: --grace takes a duration/);
  });
});

describeWith('the worker metrics under promtool', ['promtool'], () => {
  it('promtool check metrics passes on a scrape of a worker that served sessions', () => {
    expect(scraped, 'the scrape test ran first').toBeDefined();
    const r = spawnSync('promtool', ['check', 'metrics'], { input: scraped, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

/** A clock whose `now` the test moves; waits are real but short, so the loop turns quickly. */
function testClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    random: () => 0,
    delay: (ms, signal) =>
      new Promise((resolve) => {
        const timer = setTimeout(resolve, Math.min(ms, 20));
        signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      }),
    advance(ms) {
      offset += ms;
    },
  };
}

describe('/readyz', () => {
  it('turns 503 with a reason once no poll has succeeded for 10 s while the service is down, and 200 again after the next successful poll', async () => {
    const env = await selfHostedEnvironment(t.emu);
    let down = false;
    // A stand-in that drops every connection while "down", as a service that stopped would.
    const proxy = await listen((req, res) => {
      if (down) return req.socket.destroy();
      const up = request(t.emu.url + req.url, { method: req.method, headers: req.headers }, (ur) => {
        res.writeHead(ur.statusCode ?? 502, ur.headers);
        ur.pipe(res);
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    const clock = testClock();
    const ac = new AbortController();
    const stderr = new Capture();
    const base = new ApiClient({ baseUrl: proxy, apiVersion: API_VERSION, userAgent: 'svc-test', maxRetries: 0 });
    const options: WorkerOptions = {
      environmentId: env.id,
      workerId: 'ready-test',
      concurrency: 1,
      once: false,
      workdir: workdir(),
      logFormat: 'json',
      bashTimeoutMs: 10_000,
      toolTimeoutMs: 60_000,
      maxOutputChars: 30_000,
      maxIdleMs: 0,
      unrestrictedPaths: false,
      baseUrl: proxy,
      apiVersion: API_VERSION,
      metricsAddr: { host: '127.0.0.1', port: 0 },
      pollBlockMs: 50,
    };
    const done = runWorker(options, { clientFor: (c) => base.withCredential(c), environmentKey: env.key, follow, signal: ac.signal, stderr, env: {}, clock });
    const url = await statusUrl(stderr);
    const polls = async () => samples((await get(`${url}/metrics`)).body);
    await waitUntil(async () => ((await polls()).get('svc_worker_polls_total{outcome="empty"}') ?? 0) > 0, 'a successful poll');
    expect(await get(`${url}/readyz`)).toMatchObject({ status: 200, body: 'ok\n' });

    down = true;
    const failedBefore = (await polls()).get('svc_worker_polls_total{outcome="error"}') ?? 0;
    await waitUntil(async () => ((await polls()).get('svc_worker_polls_total{outcome="error"}') ?? 0) > failedBefore, 'a failed poll');
    // Failing, but the last success is recent: still ready.
    expect((await get(`${url}/readyz`)).status).toBe(200);
    clock.advance(10_000);
    const unready = await get(`${url}/readyz`);
    expect(unready.status).toBe(503);
    expect(unready.body).toMatch(/^no successful poll for 1\d s: .+\n$/);
    expect(unready.body.trim().split('\n')).toHaveLength(1);
    // Alive all along.
    expect((await get(`${url}/healthz`)).status).toBe(200);

    down = false;
    const okBefore = (await polls()).get('svc_worker_polls_total{outcome="empty"}') ?? 0;
    await waitUntil(
      async () => ((await polls()).get('svc_worker_polls_total{outcome="empty"}') ?? 0) > okBefore,
      'a successful poll after the service returned',
    );
    expect(await get(`${url}/readyz`)).toMatchObject({ status: 200, body: 'ok\n' });
    ac.abort('SIGTERM');
    await done;
  });

  it('says 503 "draining" from SIGTERM on, while a row in flight finishes', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = mkdtempSync(join(tmpdir(), 'svc-drain-ready-'));
    const ac = new AbortController();
    const w = startWorker(env.key, ['--environment', env.id, '--workdir', dir, '--metrics-addr', '127.0.0.1:0'], ac.signal);
    const url = await statusUrl(w.stderr);
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"touch started; while [ ! -e go ]; do sleep 0.02; done; echo finished"}');
    await waitRow(t.emu, env.id, sid, (r) => r.status === 'active', 'the lease to be active');
    await waitUntil(() => w.stderr.text.includes('tool started'), 'the tool to start');
    ac.abort('SIGTERM');
    const r = await get(`${url}/readyz`);
    expect(r).toMatchObject({ status: 503, body: 'draining: no more polls; the rows in flight finish or are handed back\n' });
    expect(samples((await get(`${url}/metrics`)).body).get('svc_worker_draining')).toBe(1);
    writeFileSync(join(dir, 'go'), '');
    expect(await w.done).toBe(0);
    expect(await waitRow(t.emu, env.id, sid, (x) => x.status === 'completed', 'the row to complete')).toMatchObject({ generation: 1 });
  });
});
