/** `svc threads tail SESSION THREAD --until idle` (issue 17): the same meaning as on `sessions tail`, on one thread's stream. */
import { describe, expect, it } from 'vitest';
import { emuEnv } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, getSession, history, send, waitSession, waitUntil } from '../helpers/sse';
import { background } from '../api/stream/helpers';

const t = useEmulator({ modelStepMs: 20 });
const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
/** Real pauses: the tail reads the session between them while the thread is followed. */
const tail = (args: string[]) => background(args, emuEnv(t.emu), { sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 50))) });

async function childThread(sid: string): Promise<string> {
  return waitUntil(
    async () => (await history(t.emu, `/v1/sessions/${sid}`)).find((e) => e.type === 'session.thread_created')?.data.thread_id,
    'a child thread',
  );
}

describe('svc threads tail --until idle (NDJSON)', () => {
  it('follows a child thread live and exits 0 once the session is idle, every event of the thread printed once', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/delegate 2');
    const tid = await childThread(s.id);
    const r = await tail(['threads', 'tail', s.id, tid, '--until', 'idle']).run;
    expect(r.code, r.stderr).toBe(0);
    // The thread finishes before the coordinator: the tail waited for the session's turn to end.
    expect((await getSession(t.emu, s.id)).status).toBe('idle');
    const expected = await history(t.emu, `/v1/sessions/${s.id}/threads/${tid}`);
    expect(lines(r.stdout).map((e) => e.id)).toEqual(expected.map((e) => e.id));
    expect(lines(r.stdout).at(-1)).toMatchObject({ type: 'session.thread_status', data: { status: 'idle' } });
  });

  it("on an idle session prints the thread's backlog and exits 0", async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/delegate 1');
    const tid = await childThread(s.id);
    await waitSession(t.emu, s.id, (x) => x.status === 'idle', 'the turn ended');
    const r = await tail(['threads', 'tail', s.id, tid, '--until', 'idle']).run;
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout).map((e) => e.id)).toEqual((await history(t.emu, `/v1/sessions/${s.id}/threads/${tid}`)).map((e) => e.id));
  });

  it('with --cursor now exits 11 at once, printing nothing, when the session is archived (terminated)', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/delegate 1');
    const tid = await childThread(s.id);
    await waitSession(t.emu, s.id, (x) => x.status === 'idle', 'the turn ended');
    expect((await call(t.emu, 'POST', `/v1/sessions/${s.id}/archive`)).status).toBe(200);
    const r = await tail(['threads', 'tail', s.id, tid, '--cursor', 'now', '--until', 'idle']).run;
    expect(r.code).toBe(11);
    expect(r.stderr).toMatch(/archived/);
    expect(r.stdout).toBe('');
  });
});
