import { describe, expect, it } from 'vitest';
import { emuEnv, svc, type SvcOptions, ndjson } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { agentSession, send, waitSession, waitUntil } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 5 });
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, o.env) });
let n = 0;
const fresh = async (label: string) => (await agentSession(t.emu, { name: 'waiter' }, { metadata: { wait: label }, title: `w${++n}` })).id as string;

describe('svc sessions wait on many', () => {
  it('exit 0 once every selected session is idle, each printed as it settles', async () => {
    const a = await fresh('w1');
    const b = await fresh('w1');
    await send(t.emu, a, '/slow 20 one two three');
    await send(t.emu, b, '/echo done');
    const r = await run(['sessions', 'wait', '-l', 'wait=w1', '-o', 'ndjson', '--timeout', '30s']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const printed = ndjson(r.stdout);
    expect(printed.map((s) => s.id).sort()).toEqual([a, b].sort());
    expect(printed.every((s) => s.status === 'idle')).toBe(true);
  });

  it('exit 11 when any ended in session.error, after every other has settled', async () => {
    const ok = await fresh('w2');
    const bad = await fresh('w2');
    await send(t.emu, ok, '/slow 20 fine');
    await send(t.emu, bad, '/error model_unavailable');
    const r = await run(['sessions', 'wait', ok, bad, '-o', 'ndjson', '--timeout', '30s']);
    expect(r.code).toBe(11);
    expect(
      ndjson(r.stdout)
        .map((s) => s.id)
        .sort(),
    ).toEqual([ok, bad].sort());
    expect(r.stderr).toMatch(/model_unavailable/);
  });

  it('exit 13 for a session awaiting a reply; with --fail-fast at the first failure, leaving the rest unwaited', async () => {
    const asks = await fresh('w3');
    const slow = await fresh('w3');
    await send(t.emu, asks, '/confirm bash {"command":"ls"}');
    await send(t.emu, slow, '/slow 500 a b c d e f g h');
    await waitSession(t.emu, asks, (s) => s.requires_action, 'waiting');
    const r = await run(['sessions', 'wait', '-l', 'wait=w3', '--fail-fast', '-o', 'ndjson', '--timeout', '60s']);
    expect(r.code).toBe(13);
    expect(ndjson(r.stdout).map((s) => s.id)).toEqual([asks]);
    expect((await call(t.emu, 'GET', `/v1/sessions/${slow}`)).body.status).toBe('running');
    await call(t.emu, 'POST', `/v1/sessions/${slow}/events`, { body: { events: [{ type: 'user.interrupt' }] } });
  });

  it('exit 124 when --timeout elapses first, naming what is still running', async () => {
    const slow = await fresh('w4');
    const done = await fresh('w4');
    await send(t.emu, slow, '/slow 1000 a b c d e f g h');
    await waitSession(t.emu, slow, (s) => s.status === 'running', 'running');
    const r = await run(['sessions', 'wait', slow, done, '-o', 'ndjson', '--timeout', '1s']);
    expect(r.code).toBe(124);
    expect(ndjson(r.stdout).map((s) => s.id)).toEqual([done]);
    expect(r.stderr).toContain(slow);
    await call(t.emu, 'POST', `/v1/sessions/${slow}/events`, { body: { events: [{ type: 'user.interrupt' }] } });
  });

  it('Ctrl-C while the sessions are being read is exit 130 with one line, not a failure per session', async () => {
    const ids = [await fresh('w5'), await fresh('w5')];
    for (const id of ids) await send(t.emu, id, '/slow 1000 a b c d e f g h');
    for (const id of ids) await waitSession(t.emu, id, (s) => s.status === 'running', 'running');
    const delayed = async () => (await call(t.emu, 'GET', '/_emulator/stats')).body.delayed ?? 0;
    const before = await delayed();
    await call(t.emu, 'POST', '/_emulator/faults', { body: { delay_ms: 5000 } });
    try {
      const ctrlC = new AbortController();
      const r = run(['sessions', 'wait', ...ids], { signal: ctrlC.signal });
      // Both sessions' reads are at the service, held there.
      await waitUntil(async () => (await delayed()) >= before + 2, 'the reads to arrive', 10_000);
      ctrlC.abort('SIGINT');
      const { code, stderr } = await r;
      expect({ code, stderr }).toEqual({ code: 130, stderr: 'error: interrupted\n' });
    } finally {
      await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
      for (const id of ids) await call(t.emu, 'POST', `/v1/sessions/${id}/events`, { body: { events: [{ type: 'user.interrupt' }] } });
    }
  });

  it('a selection matching nothing is exit 0 with "nothing matched"', async () => {
    const r = await run(['sessions', 'wait', '-l', 'wait=nobody']);
    expect(r).toEqual({ code: 0, stdout: '', stderr: 'nothing matched\n' });
  });
});
