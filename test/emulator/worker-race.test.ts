// Rules proved here: R-WORK-8
import { describe, expect, it } from 'vitest';
import { bearer, call, useEmulator } from '../helpers/emulator';
import { createSession, send, waitUntil } from '../helpers/sse';

// A slow model step makes the window between `agent.tool_use` and the next model step wide and certain.
const t = useEmulator({ modelStepMs: 300 });

describe('emulator: a worker that answers at once', () => {
  it('R-WORK-8 a user.tool_result sent the instant the agent.tool_use appears is accepted, not refused as unexpected', async () => {
    const env = (await call(t.emu, 'POST', '/v1/environments', { body: { name: 'fast', config: { type: 'self_hosted' } } })).body;
    const key = (await call(t.emu, 'POST', `/_emulator/environments/${env.id}/keys`)).body.key;
    const s = await createSession(t.emu, { environment_id: env.id });
    await send(t.emu, s.id, '/tool read {"path":"x"}');
    const poll = await call(t.emu, 'GET', `/v1/environments/${env.id}/work/poll?block_ms=5000`, { headers: { ...bearer(key), 'svc-worker-id': 'fast' } });
    const row = poll.body.items[0];
    const token = JSON.parse(Buffer.from(row.secret, 'base64url').toString('utf8')).sessions_token;
    const lease = (op: string) =>
      call(t.emu, 'POST', `/v1/environments/${env.id}/work/${row.id}/${op}`, { body: { generation: row.generation }, headers: bearer(token) });
    expect((await lease('ack')).status).toBe(200);
    expect((await lease('heartbeat')).status).toBe(200);
    const answer = async (n: number) => {
      const use = await waitUntil(
        async () => {
          const h = await call(t.emu, 'GET', `/v1/sessions/${s.id}/events?page_size=1000`, { headers: bearer(token) });
          return h.body.items.filter((e: any) => e.type === 'agent.tool_use')[n];
        },
        `tool_use ${n + 1}`,
      );
      return call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, {
        body: { events: [{ type: 'user.tool_result', data: { event_id: use.id, content: [{ type: 'text', text: 'x: 1 line' }] } }] },
        headers: bearer(token),
      });
    };
    expect((await answer(0)).status).toBe(202);
    // The row stays leased, so the second call reaches this worker with no poll in between: the race a fast worker hits.
    await send(t.emu, s.id, '/tool read {"path":"y"}');
    const r = await answer(1);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
  });

  it('R-WORK-8 with two confirmations in one message, a call is answered as soon as it is allowed, before the other is', async () => {
    const env = (await call(t.emu, 'POST', '/v1/environments', { body: { name: 'two', config: { type: 'self_hosted' } } })).body;
    const key = (await call(t.emu, 'POST', `/_emulator/environments/${env.id}/keys`)).body.key;
    const s = await createSession(t.emu, { environment_id: env.id });
    await send(t.emu, s.id, '/tool read {"path":"warm-up"}');
    const poll = await call(t.emu, 'GET', `/v1/environments/${env.id}/work/poll?block_ms=5000`, { headers: { ...bearer(key), 'svc-worker-id': 'two' } });
    const row = poll.body.items[0];
    const token = JSON.parse(Buffer.from(row.secret, 'base64url').toString('utf8')).sessions_token;
    const lease = (op: string) =>
      call(t.emu, 'POST', `/v1/environments/${env.id}/work/${row.id}/${op}`, { body: { generation: row.generation }, headers: bearer(token) });
    expect((await lease('ack')).status).toBe(200);
    expect((await lease('heartbeat')).status).toBe(200);
    const uses = async (n: number) =>
      waitUntil(async () => {
        const h = await call(t.emu, 'GET', `/v1/sessions/${s.id}/events?page_size=1000`, { headers: bearer(token) });
        const all = h.body.items.filter((e: any) => e.type === 'agent.tool_use');
        return all.length >= n ? all : undefined;
      }, `${n} tool_use events`);
    const result = (id: string) =>
      call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, {
        body: { events: [{ type: 'user.tool_result', data: { event_id: id, content: [{ type: 'text', text: `done ${id}` }] } }] },
        headers: bearer(token),
      });
    const confirm = (id: string) =>
      call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, { body: { events: [{ type: 'user.tool_confirmation', data: { event_id: id, result: 'allow' } }] } });
    expect((await result((await uses(1))[0].id)).status).toBe(202);
    await send(t.emu, s.id, '/confirm read {"path":"a"}\n/confirm read {"path":"b"}');
    const [, a, b] = await uses(3);
    expect((await confirm(a.id)).status).toBe(202);
    // Allowed: the worker answers at once, while the second call still awaits its confirmation.
    const early = await result(a.id);
    expect(early.status, JSON.stringify(early.body)).toBe(202);
    expect((await confirm(b.id)).status).toBe(202);
    expect((await result(b.id)).status).toBe(202);
    const h = await waitUntil(async () => {
      const page = (await call(t.emu, 'GET', `/v1/sessions/${s.id}/events?page_size=1000`)).body.items;
      const idle = page.filter((e: any) => e.type === 'session.status' && e.data.status === 'idle' && e.data.stop_reason?.type === 'end_turn');
      return idle.length >= 2 ? page : undefined;
    }, 'the second turn to end');
    const results = h.filter((e: any) => e.type === 'agent.tool_result').map((e: any) => e.data.tool_result.content[0].text);
    expect(results).toEqual(expect.arrayContaining([`done ${a.id}`, `done ${b.id}`]));
  });
});
