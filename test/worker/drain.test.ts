// SIGTERM drains the worker (real processes, real signals): no more polls, the rows in flight finish within --grace
// or are handed back, exit 0; a second signal stops at once (130).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svc, tempConfigDir } from '../helpers/cli';
import { useBundledSvc, spawnSvc } from '../helpers/bundled';
import { useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';
import { resultText, rowOf, selfHostedEnvironment, toolResults, toolSession, waitRow, workdir } from './helpers';

const t = useEmulator({ leaseTtlMs: 1500, deliveryWindowMs: 3000, modelStepMs: 2 });
const built = useBundledSvc();

const workerEnv = (key: string) => ({ SVC_BASE_URL: t.emu.url, SVC_ENVIRONMENT_KEY: key, SVC_CONFIG_DIR: tempConfigDir() });

describe('svc worker run: SIGTERM drains', () => {
  it('lets a long tool call finish after SIGTERM: its one result is written, the row completed, exit 0', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const w = spawnSvc(built.bin, ['worker', 'run', '--environment', env.id, '--workdir', dir, '--concurrency', '2'], workerEnv(env.key));
    const sid = await toolSession(
      t.emu,
      env.id,
      '/tool bash {"command":"touch started; while [ ! -e go ]; do sleep 0.02; done; echo finished after the drain began"}',
    );
    await waitUntil(() => existsSync(join(dir, 'started')), 'the tool to start', 15_000);
    await waitRow(t.emu, env.id, sid, (r) => r.status === 'active', 'the lease to be active');
    w.child.kill('SIGTERM');
    await waitUntil(() => w.output().includes('draining'), 'the drain to begin');
    // A session that arrives during the drain is not claimed by this worker.
    const late = await toolSession(t.emu, env.id, '/tool bash {"command":"echo late"}');
    writeFileSync(join(dir, 'go'), '');
    const r = await w.exit;
    expect(r.code).toBe(0);
    expect((await toolResults(t.emu, sid)).map(resultText)).toEqual(['finished after the drain began\n']);
    expect(await rowOf(t.emu, env.id, sid)).toMatchObject({ status: 'completed', generation: 1 });
    expect(await rowOf(t.emu, env.id, late)).toMatchObject({ status: 'queued' });
    expect(r.stderr).not.toMatch(/cancel/);
  }, 60_000);

  it('hands back a row still busy when --grace runs out: the tool is stopped, nothing written, exit 0; the re-queued row is served once by another worker', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const w = spawnSvc(built.bin, ['worker', 'run', '--environment', env.id, '--workdir', dir, '--grace', '1s'], workerEnv(env.key));
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"if [ -e first ]; then echo second run; else touch first; exec sleep 30; fi"}');
    await waitUntil(() => existsSync(join(dir, 'first')), 'the first run to start', 15_000);
    const first = await waitRow(t.emu, env.id, sid, (r) => r.status === 'active', 'the lease to be active');
    w.child.kill('SIGTERM');
    const r = await w.exit;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/handing the row back/);
    expect(await toolResults(t.emu, sid)).toEqual([]);
    // The lease lapses and the service re-queues the row; a successor serves it and writes the only result.
    await waitRow(t.emu, env.id, sid, (x) => x.generation === first.generation + 1, 'the row to be re-queued', 15_000);
    const next = await svc(['worker', 'run', '--environment', env.id, '--workdir', dir, '--once'], { env: { ...workerEnv(env.key), PATH: process.env.PATH } });
    expect(next.code).toBe(0);
    expect((await toolResults(t.emu, sid)).map(resultText)).toEqual(['second run\n']);
    expect(await rowOf(t.emu, env.id, sid)).toMatchObject({ status: 'completed', generation: first.generation + 1 });
  }, 60_000);

  it('a second SIGTERM during the drain stops at once with exit 130', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const w = spawnSvc(built.bin, ['worker', 'run', '--environment', env.id, '--workdir', dir], workerEnv(env.key));
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"touch started; exec sleep 30"}');
    await waitUntil(() => existsSync(join(dir, 'started')), 'the tool to start', 15_000);
    await waitRow(t.emu, env.id, sid, (r) => r.status === 'active', 'the lease to be active');
    w.child.kill('SIGTERM');
    await waitUntil(() => w.output().includes('draining'), 'the drain to begin');
    w.child.kill('SIGTERM');
    expect((await w.exit).code).toBe(130);
  }, 60_000);

  it('completes an idle row kept by --max-idle at once instead of waiting it out', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const w = spawnSvc(built.bin, ['worker', 'run', '--environment', env.id, '--workdir', workdir(), '--max-idle', '10m'], workerEnv(env.key));
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo done"}');
    await waitUntil(() => w.output().includes('session idle; keeping the row'), 'the idle row to be kept', 15_000);
    w.child.kill('SIGTERM');
    expect((await w.exit).code).toBe(0);
    expect(await rowOf(t.emu, env.id, sid)).toMatchObject({ status: 'completed' });
  }, 60_000);
});
