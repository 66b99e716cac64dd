/** Accessible `svc top` (src/top/plain.ts): each session's state is said once when listed, and again only when it changes. */
import { expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { useFleet } from '../helpers/fleet';

const t = useFleet({}, { counts: { running: 1, waiting: 2, failed: 2, idle: 1, archived: 0, working: 0 } });

it('SVC_ACCESSIBLE=1 svc top --status failed,waiting: each state once at start, through several polls', async () => {
  const stop = new AbortController();
  setTimeout(() => stop.abort('SIGTERM'), 3500);
  const r = await svc(['top', '--status', 'failed,waiting', '--interval', '500ms'], {
    env: { ...emuEnv(t.emu), SVC_ACCESSIBLE: '1' },
    stdoutTTY: true,
    columns: 120,
    signal: stop.signal,
  });
  expect(r.code).toBe(0);
  const said = r.stdout.split('\n').filter((l) => l.startsWith('session '));
  const ids = [...t.fleet.sessions.failed, ...t.fleet.sessions.waiting];
  for (const id of ids)
    expect(
      said.filter((l) => l.startsWith(`session ${id} `)),
      id,
    ).toHaveLength(1);
  expect(said).toHaveLength(ids.length);
}, 30_000);
