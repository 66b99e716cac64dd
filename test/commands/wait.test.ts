import { beforeAll, describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, getSession, send, waitIdleEvents, waitSession, waitUntil } from '../helpers/sse';
import { background as bg, stats, trackStreams } from '../api/stream/helpers';

const t = useEmulator({ modelStepMs: 1 });
const env = () => emuEnv(t.emu);
let streamsOpen: ReturnType<typeof trackStreams>;
beforeAll(() => {
  streamsOpen = trackStreams(t.emu);
});
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe('svc sessions wait', () => {
  it('answers at once with exit 0 for an idle session and prints it', async () => {
    const s = await createSession(t.emu);
    const r = await svc(['sessions', 'wait', s.id], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: s.id, status: 'idle' });
  });

  it('follows a running session until its turn ends (exit 0)', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, `/slow 10 ${words(20)}`);
    const w = bg(['sessions', 'wait', s.id], env());
    await waitUntil(() => streamsOpen(s.id), 'subscribed');
    const r = await w.run;
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'idle', stop_reason: { type: 'end_turn' } });
    expect((await getSession(t.emu, s.id)).status).toBe('idle');
  });

  it('does not miss a turn that ends between the first read and the subscription', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo quick');
    // Whatever the timing, the read after the stream is live sees the idle session.
    const r = await svc(['sessions', 'wait', s.id, '--timeout', '5s'], { env: env() });
    expect(r.code).toBe(0);
    await waitIdleEvents(t.emu, s.id, 1);
  });

  it('exits 11 when the turn ended in session.error', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/error model_error');
    await waitSession(t.emu, s.id, (x) => x.status === 'idle' && x.stop_reason?.type === 'error');
    const r = await svc(['sessions', 'wait', s.id], { env: env() });
    expect(r.code).toBe(11);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: the session turn ended in session.error/);
  });

  it('exits 11 for an archived (terminated) session, and says archived, the word every view uses', async () => {
    const s = await createSession(t.emu);
    expect((await call(t.emu, 'POST', `/v1/sessions/${s.id}/archive`)).status).toBe(200);
    const r = await svc(['sessions', 'wait', s.id], { env: env() });
    expect(r.code).toBe(11);
    expect(r.stderr).toContain(`session ${s.id} was archived`);
  });

  it('exits 13 naming the awaited event when the session waits for a tool confirmation', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/confirm bash {"cmd":"ls"}');
    const r = await svc(['sessions', 'wait', s.id, '--timeout', '5s'], { env: env() });
    expect(r.code).toBe(13);
    const awaited = (await getSession(t.emu, s.id)).stop_reason.event_ids[0];
    expect(r.stderr).toContain(awaited);
    expect(r.stderr).toContain('svc sessions confirm');
  });

  it('--timeout written after the verb is the wait deadline: exit 124', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, `/slow 100 ${words(50)}`);
    const r = await svc(['sessions', 'wait', s.id, '--timeout', '300ms'], { env: env() });
    expect(r.code).toBe(124);
    expect(r.stderr.trim()).toBe(`error: session ${s.id} is still running after 0.3s (--timeout)`);
    expect((await getSession(t.emu, s.id)).status).toBe('running');
    await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, { body: { events: [{ type: 'user.interrupt', data: {} }] } });
  });

  it('--timeout before the verb stays the per-request timeout and does not end the wait', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, `/slow 25 ${words(20)}`);
    const r = await svc(['--timeout', '0.2', 'sessions', 'wait', s.id], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).status).toBe('idle');
  });

  it('rejects a bad --timeout with exit 2 before any request', async () => {
    const before = (await stats(t.emu)).requests ?? 0;
    const r = await svc(['sessions', 'wait', 'sesn_x', '--timeout', 'soon'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --timeout takes a duration such as 30, 30s, 10m or 1h (got "soon")\n');
    expect((await stats(t.emu)).requests ?? 0).toBe(before);
  });

  it('exits 6 for an unknown session', async () => {
    const r = await svc(['sessions', 'wait', 'sesn_missing'], { env: env() });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/type=resource_not_found_error status=404/);
  });
});
