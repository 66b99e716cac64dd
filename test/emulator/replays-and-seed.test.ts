// Rules proved here: R-IDEM-3, R-IDEM-4
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, history, message, send, waitIdleEvents } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 1 });

describe('emulator: idempotent sends, trigger runs, archived threads, seeding', () => {
  it('R-IDEM-3 R-IDEM-4 a send repeated with the same Idempotency-Key replays its event_id and queues one message', async () => {
    const s = await createSession(t.emu);
    const init = { body: { events: [message('/echo once')] }, headers: { 'idempotency-key': 'send-once' } };
    const a = await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, init);
    const b = await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, init);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(b.body.event_id).toBe(a.body.event_id);
    const h = await waitIdleEvents(t.emu, s.id, 1);
    expect(h.filter((e) => e.type === 'user.message')).toHaveLength(1);
  });

  it('R-IDEM-4 a manual trigger run repeated with the same key runs once', async () => {
    const agent = await call(t.emu, 'POST', '/v1/agents', { body: { name: 'trig', model: 'scripted-1' } });
    const trig = await call(t.emu, 'POST', '/v1/triggers', {
      body: { name: 'once', agent_id: agent.body.id, session_mode: 'new_session', initial_events: [message('hi')] },
    });
    expect(trig.status).toBe(201);
    const headers = { 'idempotency-key': 'run-once' };
    const a = await call(t.emu, 'POST', `/v1/triggers/${trig.body.id}/run`, { headers });
    const b = await call(t.emu, 'POST', `/v1/triggers/${trig.body.id}/run`, { headers });
    expect(b.body.id).toBe(a.body.id);
    expect((await call(t.emu, 'GET', `/v1/triggers/${trig.body.id}/runs`)).body.items).toHaveLength(1);
  });

  it('an archived thread leaves the thread list unless include_archived=true', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/delegate 1');
    await waitIdleEvents(t.emu, s.id, 1);
    const all = (await call(t.emu, 'GET', `/v1/sessions/${s.id}/threads`)).body.items;
    const child = all.find((x: any) => x.parent_thread_id !== null);
    expect((await call(t.emu, 'POST', `/v1/sessions/${s.id}/threads/${child.id}/archive`)).status).toBe(204);
    const active = (await call(t.emu, 'GET', `/v1/sessions/${s.id}/threads`)).body.items.map((x: any) => x.id);
    const every = (await call(t.emu, 'GET', `/v1/sessions/${s.id}/threads?include_archived=true`)).body.items.map((x: any) => x.id);
    expect(active).not.toContain(child.id);
    expect(every).toContain(child.id);
  });

  it('POST /_emulator/seed makes listable agents and a session whose history ends idle', async () => {
    const r = await call(t.emu, 'POST', '/_emulator/seed', { body: { agents: 30, session_events: 25 } });
    expect(r.status).toBe(201);
    expect(r.body.agent_ids).toHaveLength(2);
    expect((await call(t.emu, 'GET', `/v1/agents/${r.body.agent_ids[1]}`)).body.name).toBe('seeded-29');
    const h = await history(t.emu, `/v1/sessions/${r.body.session_id}`);
    expect(h).toHaveLength(25);
    expect(h.at(-1)).toMatchObject({ type: 'session.status', data: { status: 'idle' } });
    expect(h.filter((e) => e.type === 'session.status')).toHaveLength(1);
  });

  it('POST /_emulator/seed rejects a count that is not a small non-negative integer', async () => {
    const r = await call(t.emu, 'POST', '/_emulator/seed', { body: { agents: -1 } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.agents' });
  });
});
