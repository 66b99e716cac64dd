// Rules proved here: R-CONF-27, R-THREAD-1, R-THREAD-2, R-THREAD-3, R-THREAD-4, R-THREAD-5, R-THREAD-6, R-THREAD-7, R-STREAM-22, R-STREAM-23,
// R-STREAM-24, R-HIST-1
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, getSession, history, send, SseClient, waitIdleEvents, waitSession, waitUntil } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 1 });

const threadsOf = async (sid: string): Promise<any[]> => (await call(t.emu, 'GET', `/v1/sessions/${sid}/threads`)).body.items;
const children = async (sid: string): Promise<any[]> => (await threadsOf(sid)).filter((x) => x.parent_thread_id !== null);

/** A session whose `/delegate 2` turn has finished. */
async function delegated(): Promise<{ s: any; h: any[]; coordinator: any; kids: any[] }> {
  const s = await createSession(t.emu);
  await send(t.emu, s.id, '/delegate 2');
  const h = await waitIdleEvents(t.emu, s.id, 1);
  // The list is newest first (the spec gives no order); kids are returned in creation order.
  const all = await threadsOf(s.id);
  return { s, h, coordinator: all.find((x) => x.parent_thread_id === null), kids: all.filter((x) => x.parent_thread_id !== null).reverse() };
}

describe('emulator: threads', () => {
  it('R-THREAD-1 R-THREAD-2 every session has a coordinator thread carrying interrupted and control_epoch', async () => {
    const s = await createSession(t.emu);
    const [coordinator] = await threadsOf(s.id);
    expect(coordinator).toMatchObject({
      session_id: s.id,
      parent_thread_id: null,
      agent_name: 'helper',
      interrupted: false,
      control_epoch: '0',
      archived_at: null,
    });
    const one = await call(t.emu, 'GET', `/v1/sessions/${s.id}/threads/${coordinator.id}`);
    expect(one.body).toEqual(coordinator);
    expect((await call(t.emu, 'GET', `/v1/sessions/${s.id}/threads/sthr_nope`)).status).toBe(404);
  });

  it('R-THREAD-3 R-THREAD-4 R-STREAM-23 /delegate starts child threads whose events carry a top-level session_thread_id; coordinator events carry none', async () => {
    const { h, coordinator, kids } = await delegated();
    expect(kids).toHaveLength(2);
    const created = h.filter((e) => e.type === 'session.thread_created');
    expect(created.map((e) => e.data)).toEqual(kids.map((k) => ({ thread_id: k.id, parent_thread_id: coordinator.id, agent_name: k.agent_name })));
    for (const k of kids) {
      const own = h.filter((e) => e.session_thread_id === k.id);
      expect(own.map((e) => e.type)).toEqual(expect.arrayContaining(['session.thread_created', 'session.thread_status', 'agent.message']));
      expect(own.filter((e) => e.type === 'session.thread_status').map((e) => e.data.status)).toEqual(['running', 'idle']);
    }
    const coordinatorEvents = h.filter((e) => e.type === 'user.message' || e.type === 'session.status');
    expect(coordinatorEvents.every((e) => !('session_thread_id' in e))).toBe(true);
  });

  it('R-HIST-1 thread history carries only that thread; the coordinator thread carries the untagged events', async () => {
    const { s, h, coordinator, kids } = await delegated();
    const kid = await history(t.emu, `/v1/sessions/${s.id}/threads/${kids[0].id}`);
    expect(kid).toEqual(h.filter((e) => e.session_thread_id === kids[0].id));
    const main = await history(t.emu, `/v1/sessions/${s.id}/threads/${coordinator.id}`);
    expect(main).toEqual(h.filter((e) => e.session_thread_id === undefined));
  });

  it('R-STREAM-24 a thread stream carries only that thread, and its cursor is valid only on that thread stream (R-STREAM-22)', async () => {
    const { s, h, kids } = await delegated();
    const own = h.filter((e) => e.session_thread_id === kids[0].id);
    const c = await SseClient.open(t.emu, `/v1/sessions/${s.id}/threads/${kids[0].id}/events/stream`);
    await waitUntil(() => c.events.length >= own.length, 'thread replay');
    c.close();
    expect(c.events.map((f) => f.json)).toEqual(own);
    const cursor = encodeURIComponent(c.events[0].id!);
    const again = await SseClient.open(t.emu, `/v1/sessions/${s.id}/threads/${kids[0].id}/events/stream?cursor=${cursor}`);
    again.close();
    expect(again.status).toBe(200);
    for (const path of [`/v1/sessions/${s.id}/events/stream`, `/v1/sessions/${s.id}/threads/${kids[1].id}/events/stream`]) {
      const wrong = await SseClient.open(t.emu, `${path}?cursor=${cursor}`);
      expect(wrong.status).toBe(400);
      expect(wrong.json.error).toMatchObject({ type: 'invalid_parameter_error', param: 'cursor' });
    }
  });

  it('R-THREAD-5 R-THREAD-7 archiving a running child thread cancels it with 204; repeating is 204', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/delegate 2 100');
    const [kid, other] = await waitUntil(async () => {
      const k = await children(s.id);
      return k.length === 2 ? k : undefined;
    }, 'two children');
    const first = await call(t.emu, 'POST', `/v1/sessions/${s.id}/threads/${kid.id}/archive`);
    expect(first.status).toBe(204);
    const again = await call(t.emu, 'POST', `/v1/sessions/${s.id}/threads/${kid.id}/archive`);
    expect(again.status).toBe(204);
    const h = await waitIdleEvents(t.emu, s.id, 1);
    const archived = (await call(t.emu, 'GET', `/v1/sessions/${s.id}/threads/${kid.id}`)).body;
    expect(archived).toMatchObject({ status: 'cancelled', archived_at: expect.any(String) });
    expect(h.some((e) => e.session_thread_id === kid.id && e.type === 'agent.message')).toBe(false);
    expect(h.some((e) => e.session_thread_id === other.id && e.type === 'agent.message')).toBe(true);
  });

  it('R-THREAD-6 a child thread can be archived while the session is stopping', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/delegate 1 400');
    const [kid] = await waitUntil(async () => {
      const k = await children(s.id);
      return k.length === 1 ? k : undefined;
    }, 'a child');
    expect((await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, { body: { events: [{ type: 'user.interrupt' }] } })).status).toBe(202);
    expect((await getSession(t.emu, s.id)).stopping).toBe(true);
    expect((await call(t.emu, 'POST', `/v1/sessions/${s.id}/threads/${kid.id}/archive`)).status).toBe(204);
    await waitSession(t.emu, s.id, (x) => x.interrupted && !x.stopping);
    expect((await call(t.emu, 'GET', `/v1/sessions/${s.id}/threads/${kid.id}`)).body.archived_at).toEqual(expect.any(String));
  });

  it('archiving the coordinator thread is 400 failed_precondition_error', async () => {
    const s = await createSession(t.emu);
    const [coordinator] = await threadsOf(s.id);
    const r = await call(t.emu, 'POST', `/v1/sessions/${s.id}/threads/${coordinator.id}/archive`);
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('failed_precondition_error');
  });

  it('R-CONF-27 a session without a sub-agent roster has no orchestration tools: /delegate starts no thread', async () => {
    const bare = await call(t.emu, 'POST', '/v1/agents', { body: { name: 'solo', model: 'scripted-1' } });
    const s = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: bare.body.id } })).body;
    await send(t.emu, s.id, '/delegate 2');
    const h = await waitIdleEvents(t.emu, s.id, 1);
    expect(h.filter((e) => e.type === 'session.thread_created')).toEqual([]);
    expect((await threadsOf(s.id)).map((x) => x.parent_thread_id)).toEqual([null]);
    expect(h.find((e) => e.type === 'agent.message').data.content[0].text).toMatch(/no sub-agent roster/);
    // A roster given at creation (agent_overrides) is what makes the tools appear.
    const withRoster = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: bare.body.id, agent_overrides: { roster: [{ name: 'worker' }] } } }))
      .body;
    await send(t.emu, withRoster.id, '/delegate 1');
    const h2 = await waitIdleEvents(t.emu, withRoster.id, 1);
    expect(h2.filter((e) => e.type === 'session.thread_created')).toHaveLength(1);
  });
});
