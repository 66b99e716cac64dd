/**
 * `--debug` beside a full-screen view: with stderr on the terminal the view draws on, its lines would tear the view,
 * so the command refuses before any request (exit 2); with stderr elsewhere, or without the view, it runs.
 */
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { createSession } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 1 });
const onTerminal = { stdoutTTY: true, stderrTTY: true };

describe('--debug and the live view', () => {
  it('sessions tail --debug on a terminal is exit 2 before any request, naming the ways out', async () => {
    const s = await createSession(t.emu);
    const before = await requestCount(t.emu);
    const r = await svc(['sessions', 'tail', s.id, '--debug'], { env: emuEnv(t.emu), ...onTerminal });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('error: --debug writes to the terminal the live view is drawn on: send it to a file (2>debug.log) or add --no-live');
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('run --debug on a terminal is exit 2 and creates no session', async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'debug-screen', model: 'scripted-1' } })).body;
    const r = await svc(['run', '--agent', agent.id, '--message', 'hi', '--debug'], { env: emuEnv(t.emu), ...onTerminal });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the live view is drawn on');
    expect((await call(t.emu, 'GET', '/v1/sessions')).body.items.filter((x: { agent_id: string }) => x.agent_id === agent.id)).toHaveLength(0);
  });

  it('with --no-live, or stderr not on the terminal, --debug runs and logs the requests', async () => {
    const s = await createSession(t.emu);
    for (const [args, tty] of [
      [['--no-live', '--cursor', 'now', '--until', 'idle'], onTerminal],
      [['--cursor', 'now', '--until', 'idle', '-o', 'ndjson'], { stdoutTTY: true, stderrTTY: false }],
    ] as const) {
      const r = await svc(['sessions', 'tail', s.id, '--debug', ...args], { env: emuEnv(t.emu), ...tty });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/GET .*\/v1\/sessions\//);
    }
  });
});
