/** `svc demo --fleet`: an emulator in this process, seeded with a few dozen sessions in different states, then `svc top` on it. */
import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../../api/client';
import { sessions } from '../../api/sessions';
import { triggers } from '../../api/triggers';
import { work } from '../../api/work';
import { Ctx } from '../../runtime/context';
import type { Fleet } from '../../emulator/fleet';
import { UsageError } from '../../runtime/errors';
import { parseTop } from './parse';

export async function runFleetDemo(ctx: Ctx): Promise<void> {
  if (!ctx.io.stdout.isTTY) throw new UsageError('svc demo --fleet shows svc top, which needs a terminal; svc demo alone runs without one');
  const [{ startEmulator }, { seedFleet }, { runTop }] = await Promise.all([import('../../emulator/server'), import('../../emulator/fleet'), import('./run')]);
  const emu = await startEmulator({ port: 0 });
  try {
    await ctx.msg(`svc demo --fleet: an emulator runs at ${emu.url}; seeding sessions (running, waiting on a confirmation, failed, idle, archived)…`);
    const fleet = await seedFleet(emu);
    // The board talks to the demo's emulator, whatever the profile or the environment says.
    const demo = new Ctx(ctx.io, { ...ctx.globals, baseUrl: emu.url, apiKey: emu.apiKey });
    await seedTriggers(await demo.api(), fleet);
    const worker = await leaseOneRow(await demo.client(fleet.environment.key), fleet.environment.id);
    try {
      await runTop(demo, parseTop([], { environment: fleet.environment.id }));
    } finally {
      clearInterval(worker);
    }
  } finally {
    await emu.close();
  }
}

/** How often the demo's stand-in worker renews its lease. */
const HEARTBEAT_MS = 10_000;

/** One work row claimed and kept leased by a stand-in worker, so view 2 shows a worker, a generation and heartbeats. */
async function leaseOneRow(c: ApiClient, env: string): Promise<ReturnType<typeof setInterval>> {
  const { items } = await work.poll(c, env, 'demo-worker', 0);
  const row = items[0];
  if (!row) return setInterval(() => undefined, HEARTBEAT_MS);
  await work.ack(c, env, row.id, row.generation);
  await work.heartbeat(c, env, row.id, row.generation);
  return setInterval(() => void work.heartbeat(c, env, row.id, row.generation).catch(() => undefined), HEARTBEAT_MS);
}

const message = (text: string) => [{ type: 'user.message', data: { content: [{ type: 'text', text }] } }];

/**
 * Two triggers for view 3: one active that has run once, and one that paused itself (a reused session that fails is
 * skipped; three skips in a row pause the trigger, with the reason).
 */
async function seedTriggers(c: ApiClient, fleet: Fleet): Promise<void> {
  const [reviewer, triager] = fleet.agents;
  const nightly = await triggers.create(
    c,
    {
      name: 'nightly-triage',
      agent_id: triager.id,
      session_mode: 'new_session',
      schedule: { type: 'cron', expression: '0 3 * * *', timezone: 'UTC' },
      initial_events: message('Triage the issues opened today.'),
    },
    randomUUID(),
  );
  await triggers.run(c, String(nightly.id));
  const flaky = await triggers.create(
    c,
    { name: 'flaky-review', agent_id: reviewer.id, session_mode: 'reuse_session', initial_events: message('/error internal_error') },
    randomUUID(),
  );
  const first = await triggers.run(c, String(flaky.id));
  const sid = String(first.session_id);
  for (let i = 0; i < 200; i++) {
    const s = await sessions.get(c, sid);
    if (s.status === 'idle' && (s.stop_reason as { type?: string } | null)?.type === 'error') break;
    await new Promise((r) => setTimeout(r, 25));
  }
  for (let i = 0; i < 3; i++) await triggers.run(c, String(flaky.id));
}
