// Rules proved here: R-WORK-20, R-WORK-30 — with tools stuck on something.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client';
import { follow } from '../../src/api/stream/resumable';
import { runWorker, type WorkerOptions } from '../../src/worker/index';
import { API_VERSION } from '../../src/wire/version';
import { tempConfigDir } from '../helpers/cli';
import { Capture } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';
import { useBundledSvc } from '../helpers/bundled';
import { closeServers, listen, resultText, rowOf, selfHostedEnvironment, toolResults, toolSession, waitRow, workdir } from './helpers';

const t = useEmulator({ leaseTtlMs: 1500, deliveryWindowMs: 3000, modelStepMs: 2 });
const built = useBundledSvc();
afterAll(closeServers);

/** 40 `a` and a `!`: `^(a+)+$` backtracks through 2^40 ways of failing. */
const POISON = 'a'.repeat(40) + '!\n';
const POISON_GREP = '/tool grep {"pattern":"^(a+)+$"}';

function inProcessWorker(baseUrl: string, env: { id: string; key: string }, dir: string, over: Partial<WorkerOptions>, signal?: AbortSignal) {
  const stderr = new Capture();
  const base = new ApiClient({ baseUrl, apiVersion: API_VERSION, userAgent: 'svc-test', maxRetries: 2 });
  const options: WorkerOptions = {
    environmentId: env.id,
    workerId: 'stuck-test',
    concurrency: 1,
    once: true,
    workdir: dir,
    logFormat: 'text',
    bashTimeoutMs: 10_000,
    toolTimeoutMs: 60_000,
    maxOutputChars: 30_000,
    maxIdleMs: 0,
    unrestrictedPaths: false,
    baseUrl,
    apiVersion: API_VERSION,
    ...over,
  };
  const done = runWorker(options, {
    clientFor: (credential) => base.withCredential(credential),
    environmentKey: env.key,
    follow,
    signal,
    stderr,
    env: { PATH: process.env.PATH },
  });
  return { done, stderr };
}

describe('svc worker run: a tool stuck on something', () => {
  it('R-WORK-20 a catastrophic grep ends in a tool error at its deadline while heartbeats go on: the row is never re-queued (no poison row)', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    writeFileSync(join(dir, 'poison.txt'), POISON);
    // A deadline twice the lease: had the event loop stopped, the lease would have lapsed and the row been re-queued.
    const w = inProcessWorker(t.emu.url, env, dir, { toolTimeoutMs: 3000 });
    const sid = await toolSession(t.emu, env.id, POISON_GREP);
    await w.done;
    const [result, ...more] = await toolResults(t.emu, sid);
    expect(more).toEqual([]);
    expect(result.data.is_error).toBe(true);
    expect(resultText(result)).toContain('grep: did not finish within its deadline of 3000 ms and was stopped');
    expect(await rowOf(t.emu, env.id, sid)).toMatchObject({ status: 'completed', generation: 1 });
    expect(w.stderr.text).not.toContain('lease lost');
  }, 30_000);

  it('R-WORK-30 Ctrl-C ends the worker within its grace time while a grep is stuck in a catastrophic pattern: the call is cancelled, its result written, the row stopped', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    writeFileSync(join(dir, 'poison.txt'), POISON);
    const child = spawn(process.execPath, [built.bin, 'worker', 'run', '--environment', env.id, '--workdir', dir], {
      env: { SVC_BASE_URL: t.emu.url, SVC_ENVIRONMENT_KEY: env.key, SVC_CONFIG_DIR: tempConfigDir(), PATH: process.env.PATH },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const sid = await toolSession(t.emu, env.id, POISON_GREP);
    await waitUntil(() => stderr.includes('tool started'), 'the grep to start', 15_000);
    await waitRow(t.emu, env.id, sid, (w) => w.status === 'active', 'the lease to be active');
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    const [result] = await toolResults(t.emu, sid);
    expect(result.data.is_error, JSON.stringify(result) + stderr).toBe(true);
    // The grep itself answered the cancel (runTool's fallback for a tool that did not stop says "cancelled: …").
    expect(resultText(result)).toMatch(/^grep: the search was stopped/);
    expect(await rowOf(t.emu, env.id, sid)).toMatchObject({ status: 'completed', generation: 1 });
    expect(stderr).toMatch(/row stopped /);
    // It wound down, not ended by its 30 s grace time running out.
    expect(stderr).not.toMatch(/grace time over/);
  }, 40_000);

  it('a worker whose wind-down is stuck (the service never answers the stop) still ends at its grace time, exit 130', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    // A stand-in in front of the emulator that never answers a stop.
    const proxy = await listen((req, res) => {
      if (req.method === 'POST' && /\/work\/[^/]+\/stop$/.test(req.url ?? '')) return;
      const up = request(t.emu.url + req.url, { method: req.method, headers: req.headers }, (ur) => {
        res.writeHead(ur.statusCode ?? 502, ur.headers);
        ur.pipe(res);
      });
      up.on('error', () => res.destroy());
      res.on('close', () => res.writableFinished || up.destroy());
      req.pipe(up);
    });
    const ac = new AbortController();
    const w = inProcessWorker(proxy, env, dir, { once: false, shutdownGraceMs: 1500 }, ac.signal);
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"exec sleep 30"}');
    await waitUntil(() => w.stderr.text.includes('tool started'), 'the tool to start', 15_000);
    await waitRow(t.emu, env.id, sid, (r) => r.status === 'active', 'the lease to be active');
    ac.abort('SIGINT');
    // Ended by the grace timer (its own error), not by the stop it waits on, which never comes: without the timer this hangs.
    await expect(w.done).rejects.toMatchObject({ exitCode: 130, message: 'the worker did not wind down within its grace time of 1500 ms' });
    expect(w.stderr.text).toMatch(/grace time over; exiting with rows still held/);
  }, 30_000);
});
