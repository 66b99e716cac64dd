/** Leaving `svc run` with a real signal: the session goes on (and the line says how to follow or stop it) unless --interrupt-on-exit. */
import { describe, expect, it } from 'vitest';
import { spawnSvc, useBundledSvc } from '../helpers/bundled';
import { call, useEmulator } from '../helpers/emulator';
import { history, waitSession, waitUntil } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 5 });
const svcBin = useBundledSvc();
const slow = `/slow 100 ${'w '.repeat(80)}`;

async function agent(): Promise<string> {
  return (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'signals', model: 'scripted-1' } })).body.id;
}

/** `svc run` as a child process, stopped by `signal` once its turn is running; the exit and the session's history after it. */
async function runAndSignal(signal: NodeJS.Signals, extra: string[]) {
  const env = { SVC_BASE_URL: t.emu.url, SVC_API_KEY: t.emu.apiKey, SVC_CONFIG_DIR: '/nonexistent-svc-config', NO_COLOR: '1' };
  const p = spawnSvc(svcBin.bin, ['run', '--agent', await agent(), '--message', slow, ...extra], env);
  const sid = await waitUntil(() => /session (sesn_\w+)/.exec(p.output())?.[1], 'the session', 15_000);
  // Running: run has subscribed and sent, and is following the turn.
  await waitSession(t.emu, sid, (s) => s.status === 'running', 'the turn');
  p.child.kill(signal);
  const exit = await p.exit;
  const events = await history(t.emu, `/v1/sessions/${sid}`);
  return { sid, exit, interrupts: events.filter((e) => e.type === 'user.interrupt').length };
}

describe('Ctrl-C or SIGTERM on svc run', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} without --interrupt-on-exit: exit 130, one line naming tail and interrupt, the session still running`, async () => {
      const { sid, exit, interrupts } = await runAndSignal(signal, []);
      expect(exit.code).toBe(130);
      expect(exit.stderr).toBe(
        `session ${sid}\nerror: interrupted; session ${sid} goes on: follow it with \`svc sessions tail ${sid}\`, or stop it with \`svc sessions interrupt ${sid}\`\n`,
      );
      expect(interrupts).toBe(0);
      expect((await call(t.emu, 'GET', `/v1/sessions/${sid}`)).body.status).toBe('running');
      await call(t.emu, 'POST', `/v1/sessions/${sid}/events`, { body: { events: [{ type: 'user.interrupt', data: {} }] } });
    }, 40_000);

    it(`${signal} with --interrupt-on-exit: the session is interrupted first (a user.interrupt in its history), then exit 130`, async () => {
      const { sid, exit, interrupts } = await runAndSignal(signal, ['--interrupt-on-exit']);
      expect(exit.code).toBe(130);
      expect(exit.stderr).toBe(`session ${sid}\nerror: interrupted; so is session ${sid} (--interrupt-on-exit): \`svc sessions continue ${sid}\` resumes it\n`);
      expect(interrupts).toBe(1);
      await waitSession(t.emu, sid, (s) => s.interrupted === true && s.status === 'idle', 'interrupted');
    }, 40_000);
  }
});
