// Rules proved here: R-STREAM-1, R-STREAM-3, R-STREAM-4, R-STREAM-5, R-STREAM-6, R-STREAM-7, R-STREAM-8, R-STREAM-10, R-STREAM-11,
// R-STREAM-12, R-STREAM-13, R-STREAM-14, R-STREAM-15, R-STREAM-17, R-STREAM-18, R-STREAM-21, R-EVT-1, R-EVT-24, R-HIST-1, R-HIST-2,
// R-HIST-3, R-HIST-4, R-HIST-5, R-HIST-6, R-HIST-7, R-HIST-8, R-PAGE-3
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, history, send, SseClient, waitIdleEvents, waitUntil, type Frame } from '../helpers/sse';
import { stats as emulatorStats, setFaults as setEmulatorFaults } from '../api/stream/helpers';

const t = useEmulator({ modelStepMs: 1, heartbeatMs: 40 });

const streamPath = (sid: string, q = '') => `/v1/sessions/${sid}/events/stream${q}`;
const setFaults = (body: Record<string, number>) => setEmulatorFaults(t.emu, body);
const stats = () => emulatorStats(t.emu);
const idleFrame = (f: Frame) => f.event === 'session.status' && f.json.data.status === 'idle';

/** A session that ran one /echo turn to idle; returns it with its history. */
async function finishedSession(text = '/echo alpha beta gamma'): Promise<{ s: any; h: any[] }> {
  const s = await createSession(t.emu);
  await send(t.emu, s.id, text);
  return { s, h: await waitIdleEvents(t.emu, s.id, 1) };
}

describe('emulator: event stream', () => {
  it('R-STREAM-3 the first frame is a control frame with cursor 0 when the session has no events', async () => {
    const s = await createSession(t.emu);
    const c = await SseClient.open(t.emu, streamPath(s.id));
    const first = await c.waitFor(() => true);
    c.close();
    expect(first.event).toBe('control');
    expect(first.json).toEqual({ cursor: '0', reason: 'start' });
  });

  it('R-STREAM-1 R-STREAM-4 R-STREAM-5 the stream is text/event-stream with Cache-Control no-cache and X-Accel-Buffering no', async () => {
    const s = await createSession(t.emu);
    const c = await SseClient.open(t.emu, streamPath(s.id));
    c.close();
    expect(c.status).toBe(200);
    expect(c.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(c.headers.get('cache-control')).toBe('no-cache');
    expect(c.headers.get('x-accel-buffering')).toBe('no');
  });

  it('R-STREAM-6 R-STREAM-7 R-STREAM-8 events follow in history order as full objects, with frame ids distinct from event ids', async () => {
    const { s, h } = await finishedSession();
    const c = await SseClient.open(t.emu, streamPath(s.id));
    await waitUntil(() => c.events.length >= h.length, 'replay');
    c.close();
    expect(c.events.map((f) => f.json)).toEqual(h);
    expect(c.events.map((f) => f.event)).toEqual(h.map((e) => e.type));
    for (const f of c.events) expect(f.id).not.toBe(f.json.id);
    expect(new Set(c.events.map((f) => f.id)).size).toBe(h.length);
  });

  it('R-STREAM-10 cursor=now sends only events produced after connecting, after a control frame with reason now', async () => {
    const { s, h } = await finishedSession();
    const c = await SseClient.open(t.emu, streamPath(s.id, '?cursor=now'));
    const control = await c.waitFor((f) => f.event === 'control');
    expect(control.json.reason).toBe('now');
    expect(control.json.cursor).not.toBe('0');
    await send(t.emu, s.id, '/echo later');
    await c.waitFor(idleFrame);
    c.close();
    const old = new Set(h.map((e) => e.id));
    expect(c.events.some((f) => old.has(f.json.id))).toBe(false);
    expect(c.events[0].event).toBe('user.message');
  });

  it('R-STREAM-11 R-STREAM-12 a frame id resumes after that frame, as the cursor query or as Last-Event-ID', async () => {
    const { s, h } = await finishedSession();
    const first = await SseClient.open(t.emu, streamPath(s.id));
    await waitUntil(() => first.events.length >= 3, 'three frames');
    first.close();
    const third = first.events[2];
    const byQuery = await SseClient.open(t.emu, streamPath(s.id, `?cursor=${encodeURIComponent(third.id!)}`));
    const byHeader = await SseClient.open(t.emu, streamPath(s.id), { 'last-event-id': third.id! });
    await waitUntil(() => byQuery.events.length >= h.length - 3 && byHeader.events.length >= h.length - 3, 'resumed frames');
    byQuery.close();
    byHeader.close();
    expect(byQuery.frames[0].json).toEqual({ cursor: third.id, reason: 'resume' });
    expect(byQuery.events.map((f) => f.json.id)).toEqual(h.slice(3).map((e) => e.id));
    expect(byHeader.events.map((f) => f.json.id)).toEqual(h.slice(3).map((e) => e.id));
  });

  it('R-STREAM-13 when cursor and Last-Event-ID are both sent, the query parameter wins', async () => {
    const { s, h } = await finishedSession();
    const c = await SseClient.open(t.emu, streamPath(s.id, '?cursor=0'), { 'last-event-id': 'garbage' });
    await waitUntil(() => c.events.length >= h.length, 'replay');
    c.close();
    expect(c.status).toBe(200);
    expect(c.events[0].json.id).toBe(h[0].id);
  });

  it('R-STREAM-14 R-HIST-7 agent.delta frames come only with include_deltas=true, live only: never in history nor on resume', async () => {
    const s = await createSession(t.emu);
    const plain = await SseClient.open(t.emu, streamPath(s.id));
    const deltas = await SseClient.open(t.emu, streamPath(s.id, '?include_deltas=true'));
    await send(t.emu, s.id, '/echo one two three');
    await plain.waitFor(idleFrame);
    await deltas.waitFor(idleFrame);
    plain.close();
    deltas.close();
    expect(plain.events.some((f) => f.event === 'agent.delta')).toBe(false);
    expect(deltas.events.filter((f) => f.event === 'agent.delta').map((f) => f.json.data.delta)).toEqual(['one ', 'two ', 'three']);
    expect((await history(t.emu, `/v1/sessions/${s.id}`)).some((e) => e.type === 'agent.delta')).toBe(false);
    const replay = await SseClient.open(t.emu, streamPath(s.id, '?include_deltas=true&cursor=0'));
    await replay.waitFor(idleFrame);
    replay.close();
    expect(replay.events.some((f) => f.event === 'agent.delta')).toBe(false);
  });

  it('R-STREAM-15 a ": hb" keep-alive comment is sent every heartbeat interval', async () => {
    const s = await createSession(t.emu);
    const c = await SseClient.open(t.emu, streamPath(s.id));
    await waitUntil(() => c.comments.length >= 2, 'two heartbeats');
    c.close();
    expect(c.comments.slice(0, 2).map((x) => x.trim())).toEqual(['hb', 'hb']);
  });

  it('R-STREAM-17 a failure before the stream opens is the ordinary error object', async () => {
    const c = await SseClient.open(t.emu, streamPath('sesn_missing'));
    expect(c.status).toBe(404);
    expect(c.json.error.type).toBe('resource_not_found_error');
  });

  it('R-STREAM-18 deleting the session sends event: error resource_not_found_error to its open streams, then closes them', async () => {
    const s = await createSession(t.emu);
    const c = await SseClient.open(t.emu, streamPath(s.id));
    await c.waitFor((f) => f.event === 'control');
    expect((await call(t.emu, 'DELETE', `/v1/sessions/${s.id}`)).status).toBe(204);
    await c.waitEnded();
    const err = c.frames[c.frames.length - 1];
    expect(err.event).toBe('error');
    expect(err.json.error.type).toBe('resource_not_found_error');
  });

  it('R-STREAM-21 an unusable cursor is 400 invalid_parameter_error with param cursor', async () => {
    const { s } = await finishedSession();
    for (const cursor of ['garbage', '999999', '-1', 'sthr_x.1']) {
      const c = await SseClient.open(t.emu, streamPath(s.id, `?cursor=${encodeURIComponent(cursor)}`));
      expect(c.status).toBe(400);
      expect(c.json.error).toMatchObject({ type: 'invalid_parameter_error', param: 'cursor' });
    }
  });

  it('R-STREAM-18 the error_stream_after fault sends event: error with {error:{type,message,request_id}} and closes; it is counted', async () => {
    const { s } = await finishedSession();
    const before = (await stats()).stream_errors ?? 0;
    await setFaults({ error_stream_after: 2 });
    const c = await SseClient.open(t.emu, streamPath(s.id));
    await setFaults({});
    await c.waitEnded();
    expect(c.events).toHaveLength(2);
    const err = c.frames[c.frames.length - 1];
    expect(err.event).toBe('error');
    expect(err.json.error).toEqual({ type: 'server_error', message: expect.any(String), request_id: expect.any(String) });
    expect((await stats()).stream_errors).toBe(before + 1);
  });

  it('the drop_stream_after fault closes the stream after N frames without an error frame; it is counted', async () => {
    const { s } = await finishedSession();
    const before = (await stats()).stream_drops ?? 0;
    await setFaults({ drop_stream_after: 3 });
    const c = await SseClient.open(t.emu, streamPath(s.id));
    await setFaults({});
    await c.waitEnded();
    expect(c.events).toHaveLength(3);
    expect(c.frames.some((f) => f.event === 'error')).toBe(false);
    expect((await stats()).stream_drops).toBe(before + 1);
  });

  it('the expire_cursors_older_than fault makes a cursor too far behind 400 invalid_parameter_error param cursor', async () => {
    const { s, h } = await finishedSession();
    const before = (await stats()).cursors_expired ?? 0;
    await setFaults({ expire_cursors_older_than: 2 });
    try {
      const old = await SseClient.open(t.emu, streamPath(s.id, '?cursor=1'));
      expect(old.status).toBe(400);
      expect(old.json.error).toMatchObject({ type: 'invalid_parameter_error', param: 'cursor' });
      const recent = await SseClient.open(t.emu, streamPath(s.id, `?cursor=${h.length - 1}`));
      recent.close();
      expect(recent.status).toBe(200);
    } finally {
      await setFaults({});
    }
    expect((await stats()).cursors_expired).toBe(before + 1);
  });

  it('R-EVT-24 reconnecting 20 times at random frames and resuming with the last frame id reads every event exactly once, in history order', async () => {
    const s = await createSession(t.emu);
    const turns = 40;
    for (let i = 0; i < turns; i++) await send(t.emu, s.id, `/slow 3 turn ${i} of the reconnect test`);
    let seed = 42;
    const random = (n: number) => 1 + ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const seen: Frame[] = [];
    let cursor: string | undefined;
    for (let round = 0; round < 20; round++) {
      const n = random(8);
      const query = cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`;
      let c: SseClient;
      if (round % 2 === 0) {
        await setFaults({ drop_stream_after: n });
        c = await SseClient.open(t.emu, streamPath(s.id, query));
        await setFaults({});
        await c.waitEnded();
      } else {
        c = await SseClient.open(t.emu, streamPath(s.id, query));
        await waitUntil(() => c.events.length >= n, `${n} frames`);
        c.close();
        await c.waitEnded();
      }
      expect(c.frames[0].json.reason).toBe(cursor === undefined ? 'start' : 'resume');
      seen.push(...c.events);
      cursor = c.frames[c.frames.length - 1].id;
    }
    const h = await waitIdleEvents(t.emu, s.id, turns);
    const last = await SseClient.open(t.emu, streamPath(s.id, `?cursor=${encodeURIComponent(cursor!)}`));
    await waitUntil(() => seen.length + last.events.length >= h.length, 'the rest');
    last.close();
    seen.push(...last.events);
    expect(seen.map((f) => f.json.id)).toEqual(h.map((e) => e.id));
  });

  it('200 concurrent subscribers all receive the same events', async () => {
    const s = await createSession(t.emu);
    const clients = await Promise.all(Array.from({ length: 200 }, () => SseClient.open(t.emu, streamPath(s.id, '?include_deltas=true'))));
    await send(t.emu, s.id, '/echo to every subscriber at once');
    await waitUntil(() => clients.every((c) => c.frames.some(idleFrame)), 'idle on every stream');
    for (const c of clients) c.close();
    const expected = clients[0].frames.map((f) => f.data);
    expect(expected.length).toBeGreaterThan(8);
    for (const c of clients) expect(c.frames.map((f) => f.data)).toEqual(expected);
  });
});

describe('emulator: event history', () => {
  it('R-HIST-1 R-HIST-3 R-HIST-5 R-HIST-6 history is {items, next_page_token, stream_cursor}, oldest first by default', async () => {
    const { s, h } = await finishedSession();
    const r = await call(t.emu, 'GET', `/v1/sessions/${s.id}/events`);
    expect(Object.keys(r.body).sort()).toEqual(['items', 'next_page_token', 'stream_cursor']);
    expect(r.body.items).toEqual(h);
    const times = h.map((e) => Date.parse(e.processed_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('R-HIST-2 R-HIST-4 order=desc pages newest first and page_token moves to earlier events', async () => {
    const { s, h } = await finishedSession('/echo a b c d e f g h i j');
    const pages: any[] = [];
    let token: string | null = null;
    do {
      const r: { body: any } = await call(t.emu, 'GET', `/v1/sessions/${s.id}/events?order=desc&page_size=3${token ? `&page_token=${token}` : ''}`);
      expect(r.body.items.length).toBeLessThanOrEqual(3);
      pages.push(...r.body.items);
      token = r.body.next_page_token;
    } while (token);
    expect(pages).toEqual([...h].reverse());
  });

  it('R-PAGE-3 history page_size outside 1..1000 is 400 invalid_parameter_error query.page_size', async () => {
    const s = await createSession(t.emu);
    for (const size of ['0', '1001']) {
      const r = await call(t.emu, 'GET', `/v1/sessions/${s.id}/events?page_size=${size}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'query.page_size' });
    }
  });

  it('R-HIST-8 a page stream_cursor is accepted by the stream, which continues after the page', async () => {
    const { s, h } = await finishedSession();
    const page = await call(t.emu, 'GET', `/v1/sessions/${s.id}/events?page_size=4`);
    const c = await SseClient.open(t.emu, streamPath(s.id, `?cursor=${encodeURIComponent(page.body.stream_cursor)}`));
    await send(t.emu, s.id, '/echo more');
    await c.waitFor(idleFrame);
    c.close();
    const ids = new Set(page.body.items.map((e: any) => e.id));
    const streamed = c.events.map((f) => f.json.id).filter((id) => !ids.has(id));
    expect(streamed.slice(0, h.length - 4)).toEqual(h.slice(4).map((e) => e.id));
  });
});
