// svc sessions explain on a self-hosted environment: a real worker stopped mid-lease (SIGSTOP: its heartbeat goes
// stale while it holds the lease), then killed (SIGKILL: the platform re-queues the row and no worker claims it).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';
import { useBundledSvc } from '../helpers/bundled';
import { readPid } from '../helpers/pid-file';
import { waitUntil } from '../helpers/sse';
import { selfHostedEnvironment, toolSession, waitRow, workdir } from '../worker/helpers';

const LEASE_TTL_MS = 1500;
// The platform notices the lost worker long after the lease ran out, as a real service's sweeper may.
const t = useEmulator({ leaseTtlMs: LEASE_TTL_MS, deliveryWindowMs: 3000, modelStepMs: 2, reclaimGraceMs: 600_000 });
const built = useBundledSvc();

const explain = async (sid: string, now?: () => number) => {
  const r = await svc(['sessions', 'explain', sid, '-o', 'json'], { env: emuEnv(t.emu), now });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

describe('svc sessions explain: a self-hosted session whose worker stopped mid-lease', () => {
  it('worker_heartbeat_stale while the stopped worker holds the lease; work_queued_no_worker once the row is re-queued and nobody claims it', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const child = spawn(process.execPath, [built.bin, 'worker', 'run', '--environment', env.id, '--workdir', dir, '--worker-id', 'stuck-worker'], {
      env: { SVC_BASE_URL: t.emu.url, SVC_ENVIRONMENT_KEY: env.key, SVC_CONFIG_DIR: tempConfigDir(), PATH: process.env.PATH },
      stdio: ['ignore', 'ignore', 'ignore'],
      detached: false,
    });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    let tool: number | undefined;
    try {
      const sid = await toolSession(t.emu, env.id, `/tool bash ${JSON.stringify({ command: 'echo $$ > pid; exec sleep 60' })}`);
      tool = await waitUntil(() => readPid(join(dir, 'pid')), 'the worker to run the call', 15_000);
      const held = await waitRow(
        t.emu,
        env.id,
        sid,
        (w) => w.status === 'active' && w.worker_id === 'stuck-worker' && w.latest_heartbeat_at,
        'an active lease',
      );
      // Healthy: the worker beats well within its lease.
      expect((await explain(sid)).causes[0].code).toBe('running');

      child.kill('SIGSTOP');
      await new Promise((r) => setTimeout(r, LEASE_TTL_MS + 1000));
      const stale = (await explain(sid)).causes[0];
      expect(stale).toMatchObject({
        code: 'worker_heartbeat_stale',
        facts: {
          work_row: held.id,
          environment_id: env.id,
          worker_id: 'stuck-worker',
          row_status: 'active',
          generation: held.generation,
          lease_ttl_ms: LEASE_TTL_MS,
        },
        commands: [`svc worker run --environment ${env.id}`, `svc work list ${env.id}`],
      });
      expect(stale.facts.heartbeat_age_ms).toBeGreaterThan(LEASE_TTL_MS);
      expect(stale.summary).toMatch(/^worker stuck-worker holds its work row .* but last beat \d+s ago, past its 1s lease/);

      child.kill('SIGKILL');
      await exited;
      // The platform reclaims now: the row is queued again at the next generation, with no worker to claim it.
      (t.emu.options as { reclaimGraceMs?: number }).reclaimGraceMs = 0;
      await waitRow(t.emu, env.id, sid, (w) => w.status === 'queued' && w.generation === held.generation + 1, 'the row to be re-queued');
      // Just re-queued is not yet "no worker": a polling worker would claim it at once.
      expect((await explain(sid)).causes[0].code).toBe('running');
      const later = () => Date.now() + 5 * 60_000;
      const queued = (await explain(sid, later)).causes[0];
      expect(queued).toMatchObject({ code: 'work_queued_no_worker', facts: { work_row: held.id, row_status: 'queued', generation: held.generation + 1 } });
      expect(queued.summary).toMatch(/in the queue of environment .* with no worker claiming it, re-queued 1 time after a lost worker$/);
      expect(queued.commands[0]).toBe(`svc worker run --environment ${env.id}`);
    } finally {
      child.kill('SIGKILL');
      if (tool) {
        try {
          process.kill(tool, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  });
});
