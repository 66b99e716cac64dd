// Issue 45 items 1 and 2: `svc run` against a service that never ends a wind-down, or never answers the interrupt.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSvc, useBundledSvc } from '../helpers/bundled';
import { svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { interposer } from '../helpers/interposer';
import { waitSession, waitUntil } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 5 });
const svcBin = useBundledSvc();
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closing.splice(0)) await c();
});

const agent = async () => (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'hostile', model: 'scripted-1' } })).body.id as string;

describe('svc run against a hostile service (issue 45)', () => {
  it('item 1: --continue --timeout 3s on a session that stays stopping ends at the deadline with 124', async () => {
    const sid = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: await agent() } })).body.id as string;
    // Every read of the session says it is still winding down an interrupt.
    const proxy = await interposer(t.emu.url, {
      rewrite: (method, path, json) =>
        method === 'GET' && path.startsWith(`/v1/sessions/${sid}`) && json.id === sid ? { ...json, stopping: true } : undefined,
    });
    closing.push(proxy.close);
    const began = Date.now();
    const r = await svc(['run', '--session', sid, '--continue', '--timeout', '3s', '--message', 'hi', '-o', 'json'], {
      env: { SVC_BASE_URL: proxy.url, SVC_API_KEY: t.emu.apiKey, NO_COLOR: '1' },
    });
    const took = Date.now() - began;
    expect(r.code).toBe(124);
    expect(r.stderr).toMatch(/still stopping.*after 3s \(--timeout\)/);
    expect(took).toBeGreaterThanOrEqual(2_900);
    expect(took).toBeLessThan(6_000);
  }, 30_000);

  it('item 2: --interrupt-on-exit and SIGTERM with an interrupt POST never answered: a bounded wait, one line, 130', async () => {
    const proxy = await interposer(t.emu.url, {
      hang: (method, path, body) => method === 'POST' && path.endsWith('/events') && body.includes('user.interrupt'),
    });
    closing.push(proxy.close);
    const env = { SVC_BASE_URL: proxy.url, SVC_API_KEY: t.emu.apiKey, SVC_CONFIG_DIR: '/nonexistent-svc-config', NO_COLOR: '1' };
    const p = spawnSvc(svcBin.bin, ['run', '--agent', await agent(), '--message', `/slow 100 ${'w '.repeat(80)}`, '--interrupt-on-exit'], env);
    closing.push(async () => void p.child.kill('SIGKILL'));
    const sid = await waitUntil(() => /session (sesn_\w+)/.exec(p.output())?.[1], 'the session', 15_000);
    await waitSession(t.emu, sid, (s) => s.status === 'running', 'the turn');
    const signalled = Date.now();
    p.child.kill('SIGTERM');
    const exit = await p.exit;
    const took = Date.now() - signalled;
    expect(proxy.hung()).toBe(1);
    expect(exit.code).toBe(130);
    expect(exit.stderr).toContain(`error: interrupted; interrupting session ${sid} got no answer in 5 s, so it may go on:`);
    expect(took).toBeLessThan(9_000);
    await call(t.emu, 'POST', `/v1/sessions/${sid}/events`, { body: { events: [{ type: 'user.interrupt', data: {} }] } });
  }, 40_000);
});
