// Rules proved here: R-ERR-25 — `sessions wait` decides from the session it reads, and names the turn's session.error.
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';
import { createSession, history, send, waitSession, waitUntil } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 1 });
const env = () => emuEnv(t.emu);
const errorStop = (x: any) => x.status === 'idle' && x.stop_reason?.type === 'error';

describe('svc sessions wait after a session.error', () => {
  it("R-ERR-25 a session read as stopped on an error names that turn's session.error, read from the history", async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/error model_error');
    await waitSession(t.emu, s.id, errorStop);
    // No stream is opened for a settled session: the read shows the error stop, the history names the error.
    const r = await svc(['sessions', 'wait', s.id, '--debug'], { env: env(), stderrTTY: true });
    expect(r.code).toBe(11);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n').filter((l) => !l.startsWith('debug:') && l !== '');
    expect(lines[0]).toBe(`error: the session turn ended in session.error: model_error: error injected by /error model_error (session ${s.id})`);
    expect(lines[1]).toBe('hint: Act on the message or retry later.');
    const requests = r.stderr
      .split('\n')
      .filter((l) => /^debug: > /.test(l))
      .map((l) => l.replace(/^debug: > (\S+) (\S+).*/, '$1 $2'))
      .map((l) => l.replace(t.emu.url, ''));
    expect(requests[0]).toBe(`GET /v1/sessions/${s.id}`);
    expect(requests[1]).toMatch(new RegExp(`^GET /v1/sessions/${s.id}/events\\?.*order=desc`));
  });

  it('R-ERR-25 only the latest turn counts: an error of an earlier turn, followed by a clean turn, exits 0', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/error rate_limited');
    await waitSession(t.emu, s.id, errorStop);
    await send(t.emu, s.id, '/echo recovered');
    await waitUntil(
      async () => (await history(t.emu, `/v1/sessions/${s.id}`)).filter((e) => e.type === 'session.status' && e.data.status === 'idle').length === 2,
      'the second turn to end',
    );
    const r = await svc(['sessions', 'wait', s.id], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: s.id, status: 'idle', stop_reason: { type: 'end_turn' } });
  });

  it('R-ERR-25 the error of the latest of several failed turns is the one named', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/error rate_limited');
    await waitSession(t.emu, s.id, errorStop);
    await send(t.emu, s.id, '/error context_length_exceeded');
    await waitUntil(async () => (await history(t.emu, `/v1/sessions/${s.id}`)).filter((e) => e.type === 'session.error').length === 2, 'the second error');
    await waitSession(t.emu, s.id, errorStop);
    const r = await svc(['sessions', 'wait', s.id], { env: env() });
    expect(r.code).toBe(11);
    expect(r.stderr).toMatch(/^error: the session turn ended in session.error: context_length_exceeded/);
    expect(r.stderr).not.toContain('rate_limited');
  });
});
