// Rules proved here: R-SESS-1, R-SESS-2, R-SESS-3, R-SESS-4, R-SESS-5, R-SESS-6, R-SESS-7, R-SESS-9, R-SESS-11, R-SESS-12, R-SESS-13, R-SESS-14,
// R-SESS-15, R-SESS-16, R-SESS-17, R-SESS-18, R-SESS-19, R-SESS-20, R-SESS-21, R-SESS-22, R-SESS-23, R-SESS-25, R-SESS-27, R-SESS-29,
// R-SESS-30, R-SESS-31, R-SESS-32, R-SESS-33, R-SESS-34, R-SESS-35, R-SESS-36, R-SESS-38, R-SESS-39, R-SESS-40, R-SESS-41, R-SESS-42, R-SESS-43,
// R-SESS-44, R-SESS-45, R-SESS-46, R-SESS-48, R-SESS-49, R-SESS-50, R-SESS-51, R-SESS-52, R-SESS-53, R-CONF-1, R-CONF-4, R-CONF-6,
// R-CONF-7, R-EVT-25, R-EVT-26, R-EVT-27, R-EVT-28, R-EVT-30, R-FILE-11, R-PAGE-8, R-PAGE-9, R-REQ-9, R-REQ-11, R-WORK-9, R-WORK-19
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server';
import { CONTROL_EPOCH_PATTERN } from '../../src/wire/limits';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, getSession, history, message, send, waitIdleEvents, waitSession, waitUntil } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 2 });

const events = (sid: string, body: unknown, headers?: Record<string, string>) => call(t.emu, 'POST', `/v1/sessions/${sid}/events`, { body, headers });
const interrupt = (sid: string, data?: unknown) => events(sid, { events: [{ type: 'user.interrupt', ...(data ? { data } : {}) }] });
const expectError = (r: { status: number; body: any }, status: number, type: string, param?: string) => {
  expect(r.status).toBe(status);
  expect(r.body.error.type).toBe(type);
  if (param !== undefined) expect(r.body.error.param).toBe(param);
};

/** A session that is interrupted and idle, so queued input stays queued. */
async function interruptedSession(): Promise<any> {
  const s = await createSession(t.emu);
  expect((await interrupt(s.id)).status).toBe(202);
  return waitSession(t.emu, s.id, (x) => x.interrupted && !x.stopping, 'interrupted');
}

describe('emulator: session resources', () => {
  it('R-SESS-22 R-SESS-23 a new session is idle with the control members and epoch "0"', async () => {
    const s = await createSession(t.emu);
    expect(s).toMatchObject({
      status: 'idle',
      stopping: false,
      interrupted: false,
      continue_pending: false,
      requires_action: false,
      control_epoch: '0',
      archived_at: null,
    });
    expect(s.control_epoch).toMatch(CONTROL_EPOCH_PATTERN);
  });

  it('R-CONF-1 an omitted agent_version freezes the current version; later agent changes do not move it', async () => {
    const a = await call(t.emu, 'POST', '/v1/agents', { body: { name: 'frozen', model: 'm1' } });
    const s1 = await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: a.body.id } });
    await call(t.emu, 'PATCH', `/v1/agents/${a.body.id}`, { body: { model: 'm2' } });
    const s2 = await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: a.body.id } });
    expect(s1.body.agent_version).toBe(1);
    expect((await getSession(t.emu, s1.body.id)).agent_version).toBe(1);
    expect(s2.body.agent_version).toBe(2);
  });

  it('R-REQ-9 a missing agent_id or an unknown member is 400 invalid_parameter_error with its param', async () => {
    expectError(await call(t.emu, 'POST', '/v1/sessions', { body: {} }), 400, 'invalid_parameter_error', 'body.agent_id');
    const s = await createSession(t.emu);
    expectError(await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: s.agent_id, colour: 'red' } }), 400, 'invalid_parameter_error', 'body.colour');
  });

  it('R-CONF-6 an unbalanced agent_overrides.system template on create is 400 invalid_parameter_error', async () => {
    const s = await createSession(t.emu);
    const r = await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: s.agent_id, agent_overrides: { system: 'Hello {{ user' } } });
    expectError(r, 400, 'invalid_parameter_error', 'body.agent_overrides.system');
    const ok = await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: s.agent_id, agent_overrides: { system: 'Hello {{ user.name }}' } } });
    expect(ok.status).toBe(201);
  });

  it('R-CONF-7 an invalid agent_overrides.system template on update is 400 invalid_parameter_error', async () => {
    const s = await createSession(t.emu);
    const r = await call(t.emu, 'PATCH', `/v1/sessions/${s.id}`, { body: { agent_overrides: { system: 'bad }} here' } } });
    expectError(r, 400, 'invalid_parameter_error', 'body.agent_overrides.system');
  });

  it('R-CONF-4 roster is accepted at creation and a PATCH carrying it is 400 invalid_parameter_error', async () => {
    const s = await createSession(t.emu, { agent_overrides: { roster: [{ agent_id: 'x' }] } });
    expect(s.agent_overrides.roster).toEqual([{ agent_id: 'x' }]);
    const r = await call(t.emu, 'PATCH', `/v1/sessions/${s.id}`, { body: { agent_overrides: { roster: [] } } });
    expectError(r, 400, 'invalid_parameter_error', 'body.agent_overrides.roster');
  });

  it('R-REQ-11 PATCH with title null is 400 invalid_parameter_error', async () => {
    const s = await createSession(t.emu);
    expectError(await call(t.emu, 'PATCH', `/v1/sessions/${s.id}`, { body: { title: null } }), 400, 'invalid_parameter_error', 'body.title');
  });

  it('R-EVT-26 R-EVT-27 R-EVT-25 session.updated comes only on a real change, in order, with only the changed members', async () => {
    const s = await createSession(t.emu, { title: 'one' });
    await call(t.emu, 'PATCH', `/v1/sessions/${s.id}`, { body: { title: 'one' } });
    await call(t.emu, 'PATCH', `/v1/sessions/${s.id}`, { body: { title: 'two' } });
    await call(t.emu, 'PATCH', `/v1/sessions/${s.id}`, { body: { title: 'three', metadata: {} } });
    const updates = (await history(t.emu, `/v1/sessions/${s.id}`)).filter((e) => e.type === 'session.updated');
    expect(updates.map((e) => e.data)).toEqual([{ title: 'two' }, { title: 'three' }]);
  });

  it('R-EVT-28 clearing all overrides yields session.updated with an empty agent_overrides object', async () => {
    const s = await createSession(t.emu, { agent_overrides: { system: 'be brief' } });
    const r = await call(t.emu, 'PATCH', `/v1/sessions/${s.id}`, { body: { agent_overrides: {} } });
    expect(r.body.agent_overrides).toEqual({});
    const upd = (await history(t.emu, `/v1/sessions/${s.id}`)).find((e) => e.type === 'session.updated');
    expect(upd.data.agent_overrides).toEqual({});
    expect(upd.data.agent.name).toBe('helper');
    expect(upd.data).not.toHaveProperty('title');
  });

  it('R-PAGE-8 R-PAGE-9 sessions list newest first and honours created_at_gt (exclusive) and created_at_gte (inclusive)', async () => {
    const a = await createSession(t.emu);
    const b = await createSession(t.emu, { agent_id: a.agent_id });
    const list = await call(t.emu, 'GET', '/v1/sessions?page_size=1000');
    const ids = list.body.items.map((x: any) => x.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    const gte = await call(t.emu, 'GET', `/v1/sessions?page_size=1000&created_at_gte=${encodeURIComponent(b.created_at)}`);
    expect(gte.body.items.map((x: any) => x.id)).toContain(b.id);
    const gt = await call(t.emu, 'GET', `/v1/sessions?page_size=1000&created_at_gt=${encodeURIComponent(b.created_at)}`);
    expect(gt.body.items.map((x: any) => x.id)).not.toContain(b.id);
  });

  it('R-SESS-53 R-FILE-11 a file resource is bound as {type, id, file_id} and read by its binding id', async () => {
    const fileId = await uploadFile();
    const s = await createSession(t.emu, { resources: [{ type: 'file', file_id: fileId }] });
    const [binding] = s.resources;
    expect(binding).toMatchObject({ type: 'file', file_id: fileId });
    expect(binding.id).not.toBe(fileId);
    const one = await call(t.emu, 'GET', `/v1/sessions/${s.id}/resources/${binding.id}`);
    expect(one.body).toEqual(binding);
    expect((await call(t.emu, 'GET', `/v1/sessions/${s.id}/resources/${fileId}`)).status).toBe(404);
    expect((await call(t.emu, 'GET', `/v1/sessions/${s.id}/resources`)).body.items).toEqual([binding]);
  });

  it('R-SESS-6 a file block in a message is bound to the session automatically', async () => {
    const fileId = await uploadFile();
    const s = await createSession(t.emu);
    const r = await events(s.id, {
      events: [
        {
          type: 'user.message',
          data: {
            content: [
              { type: 'text', text: 'see' },
              { type: 'file', file_id: fileId },
            ],
          },
        },
      ],
    });
    expect(r.status).toBe(202);
    const list = await call(t.emu, 'GET', `/v1/sessions/${s.id}/resources`);
    expect(list.body.items).toEqual([{ type: 'file', id: expect.any(String), file_id: fileId }]);
  });
});

async function uploadFile(): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob(['hello']), 'hello.txt');
  const res = await fetch(`${t.emu.url}/v1/files`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${t.emu.apiKey}`, 'svc-api-version': '2026-09-01-beta' },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe('emulator: session input', () => {
  it('R-SESS-1 R-SESS-9 R-SESS-21 input defaults to next_turn, returns 202 {event_id}, and the id becomes the message event id', async () => {
    const s = await createSession(t.emu);
    const id = await send(t.emu, s.id, 'hi');
    expect(typeof id).toBe('string');
    const h = await waitIdleEvents(t.emu, s.id, 1);
    expect(h.find((e) => e.type === 'user.message').id).toBe(id);
  });

  it('R-SESS-18 R-SESS-19 R-SESS-20 R-SESS-39 pending input of an interrupted session is listed in arrival order and not run', async () => {
    const s = await interruptedSession();
    const a = await send(t.emu, s.id, 'first');
    const b = await send(t.emu, s.id, 'second', 'steer');
    const p = await call(t.emu, 'GET', `/v1/sessions/${s.id}/events/pending`);
    expect(p.status).toBe(200);
    expect(Object.keys(p.body)).toEqual(['items']);
    expect(p.body.items.map((x: any) => [x.event_id, x.type])).toEqual([
      [a, 'next_turn'],
      [b, 'steer'],
    ]);
    expect(p.body.items[0].events).toEqual([message('first')]);
    expect(Number.isNaN(Date.parse(p.body.items[0].queued_at))).toBe(false);
    expect((await history(t.emu, `/v1/sessions/${s.id}`)).some((e) => e.type === 'user.message')).toBe(false);
  });

  it('R-SESS-2 R-SESS-7 queued messages each get their own turn, in arrival order', async () => {
    const s = await createSession(t.emu);
    for (const w of ['a', 'b', 'c']) await send(t.emu, s.id, `/echo ${w}`);
    const h = await waitIdleEvents(t.emu, s.id, 3);
    expect(h.filter((e) => e.type === 'agent.message').map((e) => e.data.content[0].text)).toEqual(['a', 'b', 'c']);
    expect(h.filter((e) => e.type === 'session.status' && e.data.status === 'idle')).toHaveLength(3);
  });

  it('R-SESS-3 steer input joins the running turn at a step boundary: one turn, the steered message inside it', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/slow 20 one two three four five six');
    await waitSession(t.emu, s.id, (x) => x.status === 'running');
    await send(t.emu, s.id, '/echo steered', 'steer');
    const h = await waitUntil(async () => {
      const all = await history(t.emu, `/v1/sessions/${s.id}`);
      return all.filter((e) => e.type === 'agent.message').length === 2 ? all : undefined;
    }, 'two messages');
    const kinds = h.map((e) => e.type);
    const steered = h.findIndex((e) => e.type === 'user.message' && e.data.content[0].text === '/echo steered');
    expect(steered).toBeLessThan(kinds.indexOf('agent.message'));
    await waitIdleEvents(t.emu, s.id, 1);
    const final = await history(t.emu, `/v1/sessions/${s.id}`);
    expect(final.filter((e) => e.type === 'session.status' && e.data.status === 'idle')).toHaveLength(1);
  });

  it('R-SESS-4 events must be a non-empty array of objects with a known type', async () => {
    const s = await createSession(t.emu);
    expectError(await events(s.id, { events: [] }), 400, 'invalid_parameter_error', 'body.events');
    expectError(await events(s.id, { events: [{ data: {} }] }), 400, 'invalid_parameter_error', 'body.events[0].type');
    expectError(await events(s.id, { events: [{ type: 'agent.message', data: {} }] }), 400, 'invalid_parameter_error', 'body.events[0].type');
    expectError(await events(s.id, { type: 'later', events: [message('x')] }), 400, 'invalid_parameter_error', 'body.type');
  });

  it('R-SESS-5 a user.message without data is 400 invalid_parameter_error', async () => {
    const s = await createSession(t.emu);
    expectError(await events(s.id, { events: [{ type: 'user.message' }] }), 400, 'invalid_parameter_error', 'body.events[0].data');
  });

  it('R-SESS-14 a reply carrying session_thread_id is 400 invalid_parameter_error', async () => {
    const s = await createSession(t.emu);
    const r = await events(s.id, { events: [{ type: 'user.tool_confirmation', session_thread_id: 'x', data: { event_id: 'e', result: 'allow' } }] });
    expectError(r, 400, 'invalid_parameter_error', 'body.events[0].session_thread_id');
  });

  it('R-SESS-15 R-SESS-16 the 51st pending input is 400 failed_precondition_error; interrupt and continue still work', async () => {
    const s = await interruptedSession();
    for (let i = 0; i < 50; i++) await send(t.emu, s.id, `m${i}`);
    expectError(await events(s.id, { events: [message('one too many')] }), 400, 'failed_precondition_error');
    expect((await interrupt(s.id)).status).toBe(202);
    const c = await call(t.emu, 'POST', `/v1/sessions/${s.id}/continue`);
    expect(c.status).toBe(200);
    expect(c.body.control_epoch).toMatch(CONTROL_EPOCH_PATTERN);
  });
});

describe('emulator: session control', () => {
  it('R-SESS-12 user.interrupt with another event in the request is 400', async () => {
    const s = await createSession(t.emu);
    const r = await events(s.id, { events: [{ type: 'user.interrupt' }, message('x')] });
    expectError(r, 400, 'invalid_parameter_error', 'body.events');
  });

  it('R-SESS-11 R-SESS-13 R-SESS-27 R-EVT-30 interrupt of a running turn: 202 {control_epoch}, stopping, then interrupted, acknowledged in history', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/slow 100 a b c d e f g h');
    await waitSession(t.emu, s.id, (x) => x.status === 'running');
    const r = await interrupt(s.id, { expected_control_epoch: '0' });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ control_epoch: '1' });
    expect((await getSession(t.emu, s.id)).stopping).toBe(true);
    expect((await call(t.emu, 'GET', `/v1/sessions/${s.id}/events/pending`)).body.items).toEqual([]);
    const done = await waitSession(t.emu, s.id, (x) => x.interrupted && !x.stopping);
    expect(done).toMatchObject({ status: 'idle', control_epoch: '1', stop_reason: { type: 'interrupted' } });
    const ack = (await history(t.emu, `/v1/sessions/${s.id}`)).find((e) => e.type === 'user.interrupt');
    expect(ack.epoch).toBe('1');
  });

  it('R-SESS-29 a stale expected_control_epoch is 409 conflict_error and changes nothing', async () => {
    const s = await createSession(t.emu);
    expectError(await interrupt(s.id, { expected_control_epoch: '7' }), 409, 'conflict_error');
    expect(await getSession(t.emu, s.id)).toMatchObject({ control_epoch: '0', interrupted: false, stopping: false });
  });

  it('R-SESS-30 interrupting an interrupted session keeps it interrupted without advancing the epoch', async () => {
    const s = await interruptedSession();
    const r = await interrupt(s.id);
    expect(r.status).toBe(202);
    expect(r.body.control_epoch).toBe(s.control_epoch);
    expect((await getSession(t.emu, s.id)).control_epoch).toBe(s.control_epoch);
  });

  it('R-SESS-35 continue on a session that is not interrupted has no effect', async () => {
    const s = await createSession(t.emu);
    const c = await call(t.emu, 'POST', `/v1/sessions/${s.id}/continue`);
    expect(c.status).toBe(200);
    expect(c.body).toEqual({ control_epoch: '0' });
    expect(await getSession(t.emu, s.id)).toMatchObject({ control_epoch: '0', continue_pending: false });
  });

  it('R-SESS-31 R-SESS-32 R-SESS-33 R-SESS-34 R-SESS-38 continue resumes an interrupted session and its kept input runs in order', async () => {
    const s = await interruptedSession();
    await send(t.emu, s.id, '/echo kept-1');
    await send(t.emu, s.id, '/echo kept-2');
    const c = await call(t.emu, 'POST', `/v1/sessions/${s.id}/continue`);
    expect(c.status).toBe(200);
    expect(BigInt(c.body.control_epoch)).toBeGreaterThan(BigInt(s.control_epoch));
    expect((await getSession(t.emu, s.id)).continue_pending).toBe(true);
    const after = await waitSession(t.emu, s.id, (x) => !x.continue_pending);
    expect(BigInt(after.control_epoch)).toBeGreaterThan(BigInt(c.body.control_epoch));
    expect(after.interrupted).toBe(false);
    const h = await waitIdleEvents(t.emu, s.id, 3);
    expect(h.filter((e) => e.type === 'agent.message').map((e) => e.data.content[0].text)).toEqual(['kept-1', 'kept-2']);
  });

  it('R-SESS-36 continue on a stopping session is 409 conflict_error', async () => {
    const s = await createSession(t.emu);
    // A long step: the session stays stopping until the step boundary, however loaded the machine is.
    await send(t.emu, s.id, '/slow 2000 a b c');
    await waitSession(t.emu, s.id, (x) => x.status === 'running');
    await interrupt(s.id);
    expectError(await call(t.emu, 'POST', `/v1/sessions/${s.id}/continue`), 409, 'conflict_error');
  });

  it('R-SESS-41 archiving a running session is 400 failed_precondition_error', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/slow 50 a b c d');
    await waitSession(t.emu, s.id, (x) => x.status === 'running');
    expectError(await call(t.emu, 'POST', `/v1/sessions/${s.id}/archive`), 400, 'failed_precondition_error');
    expect((await getSession(t.emu, s.id)).archived_at).toBeNull();
  });

  it('R-SESS-42 archiving a stopping session is 409 conflict_error', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/slow 2000 a b c');
    await waitSession(t.emu, s.id, (x) => x.status === 'running');
    await interrupt(s.id);
    expectError(await call(t.emu, 'POST', `/v1/sessions/${s.id}/archive`), 409, 'conflict_error');
  });

  it('R-SESS-40 R-SESS-43 R-SESS-44 R-SESS-45 R-SESS-46 R-SESS-17 archive terminates: reads allowed, updates and input rejected, continue 409', async () => {
    const s = await createSession(t.emu);
    const a = await call(t.emu, 'POST', `/v1/sessions/${s.id}/archive`);
    expect(a.status).toBe(200);
    expect(a.body.status).toBe('terminated');
    expect(a.body.archived_at).toEqual(expect.any(String));
    expect((await getSession(t.emu, s.id)).status).toBe('terminated');
    const threads = await call(t.emu, 'GET', `/v1/sessions/${s.id}/threads`);
    expect(threads.body.items.every((x: any) => x.archived_at)).toBe(true);
    expectError(await call(t.emu, 'PATCH', `/v1/sessions/${s.id}`, { body: { title: 'x' } }), 400, 'failed_precondition_error');
    expectError(await events(s.id, { events: [message('x')] }), 400, 'failed_precondition_error');
    expectError(await call(t.emu, 'POST', `/v1/sessions/${s.id}/continue`), 409, 'conflict_error');
  });

  it('R-SESS-48 deleting a session with an active execution is 409 conflict_error; an idle one is deleted', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/slow 50 a b c d');
    await waitSession(t.emu, s.id, (x) => x.status === 'running');
    expectError(await call(t.emu, 'DELETE', `/v1/sessions/${s.id}`), 409, 'conflict_error');
    await waitSession(t.emu, s.id, (x) => x.status === 'idle');
    expect((await call(t.emu, 'DELETE', `/v1/sessions/${s.id}`)).status).toBe(204);
    expect((await call(t.emu, 'GET', `/v1/sessions/${s.id}`)).status).toBe(404);
  });
});

describe('emulator: tool waits', () => {
  it('R-SESS-49 R-SESS-25 /confirm asks, the session waits idle with requires_action; allow resumes it', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/confirm bash {"command":"rm -rf build"}');
    const waiting = await waitSession(t.emu, s.id, (x) => x.requires_action);
    const use = (await history(t.emu, `/v1/sessions/${s.id}`)).find((e) => e.type === 'agent.tool_use');
    expect(use.data.permission).toBe('ask');
    expect(waiting).toMatchObject({ status: 'idle', stop_reason: { type: 'requires_action', event_ids: [use.id] } });
    const r = await events(s.id, { events: [{ type: 'user.tool_confirmation', data: { event_id: use.id, result: 'allow' } }] });
    expect(r.status).toBe(202);
    const h = await waitIdleEvents(t.emu, s.id, 2);
    expect(h.find((e) => e.type === 'agent.tool_result').data.event_id).toBe(use.id);
    expect(await getSession(t.emu, s.id)).toMatchObject({ requires_action: false, stop_reason: { type: 'end_turn' } });
  });

  it('R-SESS-52 the first valid confirmation wins; a later one changes nothing', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/confirm bash {}');
    await waitSession(t.emu, s.id, (x) => x.requires_action);
    const [eventId] = (await getSession(t.emu, s.id)).stop_reason.event_ids;
    await events(s.id, { events: [{ type: 'user.tool_confirmation', data: { event_id: eventId, result: 'deny', deny_message: 'no' } }] });
    const late = await events(s.id, { events: [{ type: 'user.tool_confirmation', data: { event_id: eventId, result: 'allow' } }] });
    expect(late.status).toBe(202);
    const h = await waitIdleEvents(t.emu, s.id, 2);
    expect(h.filter((e) => e.type === 'user.tool_confirmation')).toHaveLength(1);
    const result = h.find((e) => e.type === 'agent.tool_result');
    expect(result.data.is_error).toBe(true);
    expect(result.data.tool_result.content[0].text).toBe('no');
  });

  it('R-SESS-50 R-SESS-51 /custom calls wait for every user.custom_tool_result before the thread resumes', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/custom lookup {"q":1}\n/custom fetch {"q":2}');
    const waiting = await waitSession(t.emu, s.id, (x) => x.stop_reason?.event_ids?.length === 2);
    const [first, second] = waiting.stop_reason.event_ids;
    const uses = (await history(t.emu, `/v1/sessions/${s.id}`)).filter((e) => e.type === 'agent.custom_tool_use');
    expect(uses.map((e) => e.id)).toEqual([first, second]);
    await events(s.id, { events: [{ type: 'user.custom_tool_result', data: { event_id: first, content: [{ type: 'text', text: 'one' }] } }] });
    const half = await getSession(t.emu, s.id);
    expect(half).toMatchObject({ requires_action: true, status: 'idle', stop_reason: { type: 'requires_action', event_ids: [second] } });
    await events(s.id, { events: [{ type: 'user.custom_tool_result', data: { event_id: second, content: [{ type: 'text', text: 'two' }] } }] });
    const h = await waitIdleEvents(t.emu, s.id, 2);
    expect(h[h.length - 1].data.stop_reason).toEqual({ type: 'end_turn' });
  });

  it('a reply for an unknown call is 400 invalid_parameter_error naming data.event_id', async () => {
    const s = await createSession(t.emu);
    const r = await events(s.id, { events: [{ type: 'user.custom_tool_result', data: { event_id: 'nope', content: [] } }] });
    expectError(r, 400, 'invalid_parameter_error', 'body.events[0].data.event_id');
  });

  it('R-WORK-19 R-WORK-9 on a self-hosted environment /tool waits for a worker user.tool_result sent with the session work token', async () => {
    const env = await call(t.emu, 'POST', '/v1/environments', { body: { name: 'self', config: { type: 'self_hosted' } } });
    const key = (await call(t.emu, 'POST', `/_emulator/environments/${env.body.id}/keys`)).body.key;
    const s = await createSession(t.emu, { environment_id: env.body.id });
    const other = await createSession(t.emu);
    await send(t.emu, s.id, '/tool bash {"command":"pwd"}');
    const use = await waitUntil(async () => (await history(t.emu, `/v1/sessions/${s.id}`)).find((e) => e.type === 'agent.tool_use'), 'tool_use');
    const poll = await call(t.emu, 'GET', `/v1/environments/${env.body.id}/work/poll?block_ms=5000`, {
      headers: { authorization: `Bearer ${key}`, 'svc-worker-id': 'w1' },
    });
    const token = JSON.parse(Buffer.from(poll.body.items[0].secret, 'base64url').toString()).sessions_token;
    const reply = { events: [{ type: 'user.tool_result', data: { event_id: use.id, content: [{ type: 'text', text: '/work' }] } }] };
    expectError(await events(other.id, reply, { authorization: `Bearer ${token}` }), 403, 'permission_denied_error');
    expect((await events(s.id, reply, { authorization: `Bearer ${token}` })).status).toBe(202);
    const h = await waitIdleEvents(t.emu, s.id, 1);
    expect(h.find((e) => e.type === 'agent.tool_result').data.tool_result.content).toEqual([{ type: 'text', text: '/work' }]);
  });
});

describe('emulator: session snapshot', () => {
  it('a --state snapshot keeps sessions, their history and pending input across a restart', async () => {
    const statePath = join(mkdtempSync(join(tmpdir(), 'svc-sessions-')), 'state.json');
    const first = await startEmulator({ port: 0, statePath, modelStepMs: 1, apiKey: 'sk_state' });
    const s = await createSession(first);
    await send(first, s.id, '/echo saved');
    const h = await waitIdleEvents(first, s.id, 1);
    expect((await call(first, 'POST', `/v1/sessions/${s.id}/events`, { body: { events: [{ type: 'user.interrupt' }] } })).status).toBe(202);
    await waitSession(first, s.id, (x) => x.interrupted && !x.stopping);
    await send(first, s.id, 'kept for later');
    const before = await history(first, `/v1/sessions/${s.id}`);
    await first.close();
    const second = await startEmulator({ port: 0, statePath, modelStepMs: 1, apiKey: 'sk_state' });
    try {
      expect(await history(second, `/v1/sessions/${s.id}`)).toEqual(before);
      expect(before.slice(0, h.length)).toEqual(h);
      const pending = await call(second, 'GET', `/v1/sessions/${s.id}/events/pending`);
      expect(pending.body.items.map((x: any) => x.events[0].data.content[0].text)).toEqual(['kept for later']);
    } finally {
      await second.close();
    }
  });
});

describe('emulator: hand-built histories (POST /_emulator/sessions/{id}/history)', () => {
  it("session.updated_at dates the session's last change, which updated_at_gt then sees; a bad time is 400 naming it", async () => {
    const s = await createSession(t.emu);
    const at = new Date(Date.now() - 2 * 3600_000).toISOString();
    const post = (session: unknown) => call(t.emu, 'POST', `/_emulator/sessions/${s.id}/history`, { body: { items: [], session } });
    expect((await post({ updated_at: at })).status).toBe(204);
    expect((await getSession(t.emu, s.id)).updated_at).toBe(at);
    const since = (ms: number) => call(t.emu, 'GET', `/v1/sessions?page_size=1000&updated_at_gt=${new Date(Date.now() - ms).toISOString()}`);
    expect((await since(3600_000)).body.items.map((x: any) => x.id)).not.toContain(s.id);
    expect((await since(3 * 3600_000)).body.items.map((x: any) => x.id)).toContain(s.id);
    expectError(await post({ updated_at: 'yesterday' }), 400, 'invalid_parameter_error', 'body.session.updated_at');
    expect((await getSession(t.emu, s.id)).updated_at).toBe(at);
  });
});
