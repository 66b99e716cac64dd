import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
/**
 * `--until idle --cursor now` off the live view: a session already settled when the tail starts ends it at once (no
 * event will come); a running one is followed until its turn ends, printing only what came after the start.
 */
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, getSession, history, send, waitIdleEvents, waitSession, waitUntil } from '../helpers/sse';
import { background, scriptedEvent, scriptedServer, sseFrame, trackStreams } from '../api/stream/helpers';

const t = useEmulator({ modelStepMs: 1 });
const env = () => emuEnv(t.emu);
/** A tail that would wait forever is cut here: it then exits 130, which no test below expects. */
const bounded = (args: string[]) => svc(args, { env: env(), sleep: async () => {}, signal: AbortSignal.timeout(8_000) });
const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

async function idleWithThread(): Promise<{ sid: string; tid: string }> {
  const s = await createSession(t.emu);
  await send(t.emu, s.id, '/delegate 1');
  const all = await waitIdleEvents(t.emu, s.id, 1);
  await waitSession(t.emu, s.id, (x) => x.status === 'idle', 'the turn ended');
  return { sid: s.id, tid: all.find((e) => e.type === 'session.thread_created').data.thread_id };
}

describe('--until idle --cursor now (NDJSON)', () => {
  it('sessions tail on a session already idle exits 0 at once and prints nothing', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo done before the tail');
    await waitIdleEvents(t.emu, s.id, 1);
    const r = await bounded(['sessions', 'tail', s.id, '--cursor', 'now', '--until', 'idle']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
  });

  it('sessions tail on a session already waiting on a confirmation exits 13 with the command that answers it', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/confirm deploy {}');
    const waiting = await waitSession(t.emu, s.id, (x) => x.stop_reason?.type === 'requires_action', 'a confirmation awaited');
    const r = await bounded(['sessions', 'tail', s.id, '--cursor', 'now', '--until', 'idle']);
    expect(r.code).toBe(13);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`svc sessions confirm ${s.id} ${waiting.stop_reason.event_ids[0]}`);
  });

  it('sessions tail on an archived (terminated) session exits 11 at once, saying archived', async () => {
    const s = await createSession(t.emu);
    expect((await call(t.emu, 'POST', `/v1/sessions/${s.id}/archive`)).status).toBe(200);
    const r = await bounded(['sessions', 'tail', s.id, '--cursor', 'now', '--until', 'idle']);
    expect(r.code).toBe(11);
    expect(r.stderr).toContain('was archived');
  });

  it('R-STREAM-10: sessions tail on a running session waits for the turn to end and prints only what came after the start', async () => {
    const streamsOpen = trackStreams(t.emu);
    const s = await createSession(t.emu);
    await send(t.emu, s.id, `/slow 200 ${'w '.repeat(50)}`);
    await waitSession(t.emu, s.id, (x) => x.status === 'running', 'the turn running');
    const before = (await history(t.emu, `/v1/sessions/${s.id}`)).map((e) => e.id);
    const tail = background(['sessions', 'tail', s.id, '--cursor', 'now', '--until', 'idle'], env());
    await waitUntil(() => streamsOpen(s.id), 'the tail subscribed');
    // The interrupt ends the turn: idle, stop_reason interrupted, which settles as interrupted (exit 12).
    expect((await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, { body: { events: [{ type: 'user.interrupt', data: {} }] } })).status).toBe(202);
    const r = await tail.run;
    expect(r.code, r.stderr).toBe(12);
    expect((await getSession(t.emu, s.id)).status).toBe('idle');
    const all = (await history(t.emu, `/v1/sessions/${s.id}`)).map((e) => e.id);
    const printed = lines(r.stdout);
    // Exactly the history after some point at or past the start, through the final idle status.
    expect(printed.map((e) => e.id)).toEqual(all.slice(all.length - printed.length));
    expect(printed.some((e) => before.includes(e.id))).toBe(false);
    expect(printed.some((e) => e.type === 'user.interrupt')).toBe(true);
    expect(printed.at(-1)).toMatchObject({ type: 'session.status', data: { status: 'idle', stop_reason: { type: 'interrupted' } } });
  });

  it("threads tail on a running session waits for the turn to end and prints only the thread's events after the start", async () => {
    const streamsOpen = trackStreams(t.emu);
    const s = await createSession(t.emu);
    const coordinator = (await call(t.emu, 'GET', `/v1/sessions/${s.id}/threads`)).body.items.find((x: any) => x.parent_thread_id === null).id;
    await send(t.emu, s.id, `/slow 200 ${'w '.repeat(50)}`);
    await waitSession(t.emu, s.id, (x) => x.status === 'running', 'the turn running');
    const before = (await history(t.emu, `/v1/sessions/${s.id}`)).map((e) => e.id);
    const tail = background(['threads', 'tail', s.id, coordinator, '--cursor', 'now', '--until', 'idle'], env(), {
      sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 20))),
    });
    await waitUntil(() => streamsOpen(s.id), 'the tail subscribed');
    expect((await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, { body: { events: [{ type: 'user.interrupt', data: {} }] } })).status).toBe(202);
    const r = await tail.run;
    expect(r.code, r.stderr).toBe(12);
    const all = (await history(t.emu, `/v1/sessions/${s.id}/threads/${coordinator}`)).map((e) => e.id);
    const printed = lines(r.stdout);
    expect(printed.length).toBeGreaterThan(0);
    expect(printed.map((e) => e.id)).toEqual(all.slice(all.length - printed.length));
    expect(printed.some((e) => before.includes(e.id))).toBe(false);
  });

  it('threads tail on a session already idle exits 0 at once and prints nothing', async () => {
    const { sid, tid } = await idleWithThread();
    const r = await bounded(['threads', 'tail', sid, tid, '--cursor', 'now', '--until', 'idle']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
  });

  it('sessions tail --thread on a session already idle exits 0 at once and prints nothing', async () => {
    const { sid, tid } = await idleWithThread();
    const r = await bounded(['sessions', 'tail', sid, '--thread', tid, '--cursor', 'now', '--until', 'idle']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
  });

  it('sessions tail on a service that gives no stream_cursor follows from now and still exits 0 at once on an idle session', async () => {
    const server = await scriptedServer({
      history: () => [scriptedEvent(1, 'session.status', { status: 'idle', stop_reason: { type: 'end_turn' } })],
      stream: () => ({ frames: sseFrame('1', 'control', '{"cursor":"1","reason":"now"}') }),
    });
    try {
      const r = await svc(['sessions', 'tail', 'sesn_scripted', '--cursor', 'now', '--until', 'idle'], {
        env: emuEnv(server),
        signal: AbortSignal.timeout(8_000),
      });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
      expect(server.cursors).toEqual(['now']);
    } finally {
      await server.close();
    }
  });

  it('R-HIST-9 R-HIST-10: sessions tail --cursor now --until idle starts at the history stream_cursor and skips the newest event read with it when the stream repeats it', async () => {
    const old = scriptedEvent(1, 'agent.message');
    const fresh = [scriptedEvent(2, 'agent.message'), scriptedEvent(3, 'session.status', { status: 'idle', stop_reason: { type: 'end_turn' } })];
    let sessionReads = 0;
    const cursors: string[] = [];
    const server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      res.writeHead(200, { 'content-type': url.pathname.endsWith('/stream') ? 'text/event-stream' : 'application/json' });
      if (url.pathname.endsWith('/events/stream')) {
        cursors.push(url.searchParams.get('cursor') ?? '');
        // The spec allows the first streamed events to repeat the end of the page.
        res.write(sseFrame('c1', 'control', '{"cursor":"c1","reason":"resume"}'));
        for (const [i, e] of [old, ...fresh].entries()) res.write(sseFrame(`c${i + 1}`, e.type, JSON.stringify(e)));
        return;
      }
      if (url.pathname.endsWith('/events')) return res.end(JSON.stringify({ items: [old], stream_cursor: 'c1' }));
      // Running when the tail goes live, idle when the idle status is confirmed.
      res.end(JSON.stringify({ id: 'sesn_scripted', status: sessionReads++ === 0 ? 'running' : 'idle', stop_reason: null }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await svc(['sessions', 'tail', 'sesn_scripted', '--cursor', 'now', '--until', 'idle'], {
        env: emuEnv({ url, apiKey: 'sk_scripted' }),
        signal: AbortSignal.timeout(8_000),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(cursors).toEqual(['c1']);
      expect(lines(r.stdout).map((e) => e.id)).toEqual(fresh.map((e) => e.id));
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
