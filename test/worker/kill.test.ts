// Rules proved here: R-WORK-12, R-WORK-14, R-WORK-15
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';
import { readPid } from '../helpers/pid-file';
import { expectNoSecrets, gone, recordSessionTokens, resultText, rowOf, selfHostedEnvironment, toolResults, toolSession, waitRow, workdir } from './helpers';
import { useBundledSvc } from '../helpers/bundled';

const t = useEmulator({ leaseTtlMs: 1500, deliveryWindowMs: 3000, modelStepMs: 2 });
const built = useBundledSvc();

describe('svc worker run: a lost worker', () => {
  it('R-WORK-14 R-WORK-15 a worker killed with SIGKILL loses its row; it is re-queued at generation + 1, finished by a second worker, and the first token is rejected', async () => {
    const tokens = recordSessionTokens(t.emu);
    const env = await selfHostedEnvironment(t.emu);
    const first = workdir();
    const second = workdir();
    // In the first worker's folder the call blocks; in the second's it answers at once.
    writeFileSync(join(first, 'slow'), '');
    const command = 'if [ -e slow ]; then echo $$ > pid; exec sleep 30; fi; echo done in $(basename $PWD)';
    const child = spawn(process.execPath, [built.bin, 'worker', 'run', '--environment', env.id, '--workdir', first, '--worker-id', 'doomed'], {
      env: { SVC_BASE_URL: t.emu.url, SVC_ENVIRONMENT_KEY: env.key, SVC_CONFIG_DIR: tempConfigDir(), PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let childOut = '';
    child.stdout.on('data', (c) => (childOut += c));
    child.stderr.on('data', (c) => (childOut += c));
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const sid = await toolSession(t.emu, env.id, `/tool bash ${JSON.stringify({ command })}`);
    const pid = await waitUntil(() => readPid(join(first, 'pid')), 'the first worker to run the call', 15_000);
    const held = await waitRow(t.emu, env.id, sid, (w) => w.status === 'active' && w.worker_id === 'doomed', 'the first lease to be active');
    const oldToken = tokens.tokens.filter((x) => x.sessionId === sid).at(-1)!.token;
    child.kill('SIGKILL');
    await exited;
    try {
      process.kill(pid, 'SIGKILL'); // the orphaned tool of the killed worker
    } catch {
      // already gone
    }

    const requeued = await waitRow(t.emu, env.id, sid, (w) => w.status === 'queued' && w.generation === held.generation + 1, 'the row to be re-queued');
    expect(requeued.worker_id).toBeUndefined();
    const r = await svc(['worker', 'run', '--environment', env.id, '--workdir', second, '--once', '--worker-id', 'successor'], {
      env: { SVC_BASE_URL: t.emu.url, SVC_ENVIRONMENT_KEY: env.key, SVC_CONFIG_DIR: tempConfigDir(), PATH: process.env.PATH },
    });
    expect(r.code).toBe(0);
    expect(await rowOf(t.emu, env.id, sid)).toMatchObject({ status: 'completed', generation: held.generation + 1 });
    const results = await toolResults(t.emu, sid);
    expect(results.map(resultText)).toEqual([`done in ${second.split('/').pop()}\n`]);
    // The first worker's credential died with its lease.
    const auth = { authorization: `Bearer ${oldToken}` };
    const beat = await call(t.emu, 'POST', `/v1/environments/${env.id}/work/${held.id}/heartbeat`, { body: { generation: held.generation }, headers: auth });
    expect(beat.status).toBe(401);
    const write = await call(t.emu, 'POST', `/v1/sessions/${sid}/events`, {
      body: { events: [{ type: 'user.tool_result', data: { event_id: results[0].data.event_id, content: [] } }] },
      headers: auth,
    });
    expect(write.status).toBe(401);
    await waitUntil(() => gone(pid), 'the orphaned tool to be gone');
    expectNoSecrets(childOut + r.stdout + r.stderr, [env.key, ...tokens.tokens.map((x) => x.token)]);
  }, 30_000);
});
