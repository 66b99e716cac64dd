// Rules proved here: R-TRIG-1..8, R-TRIG-10, R-TRIG-12..15, R-TRIG-17, R-TRIG-19, R-FILE-8, R-FILE-9
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/emulator/errors';
import type { SessionsService } from '../../src/emulator/services';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

/** An in-process stand-in for the sessions module: records what triggers ask of it. */
class FakeSessions implements SessionsService {
  readonly created: Array<Record<string, unknown>> = [];
  readonly sent: Array<{ id: string; events: unknown[] }> = [];
  readonly failed = new Set<string>();
  readonly full = new Set<string>();
  refuseCreate = false;
  exists = (id: string) => this.created.some((s) => s.id === id);
  get = () => undefined;
  isBusy = () => false;
  cancel = () => undefined;
  create = (body: Record<string, unknown>) => {
    if (this.refuseCreate) throw new HttpError(400, 'invalid_parameter_error', 'agent is archived', 'body.agent_id');
    const id = `sess_fake_${this.created.length + 1}`;
    this.created.push({ id, ...body });
    return { id };
  };
  send = (id: string, _type: string, events: unknown[]) => (this.sent.push({ id, events }), { event_id: 'evt_1' });
  failedIdle = (id: string) => this.failed.has(id);
  queueFull = (id: string) => this.full.has(id);
  seedEvents = (): void => undefined;
}

const message = { type: 'user.message', data: { content: [{ type: 'text', text: 'daily report' }] } };
let agentId = '';
let otherAgentId = '';
let sessions: FakeSessions;
/** The real sessions module, if registered, put back after each test. */
let saved: SessionsService | undefined;

beforeAll(async () => {
  agentId = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'reporter', model: 'm' } })).body.id;
  otherAgentId = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'other', model: 'm' } })).body.id;
  saved = t.emu.services.sessions;
});

afterEach(() => {
  t.emu.services.sessions = saved;
});

function useFake(): FakeSessions {
  sessions = new FakeSessions();
  t.emu.services.sessions = sessions;
  return sessions;
}

const create = (body: Record<string, unknown> = {}) =>
  call(t.emu, 'POST', '/v1/triggers', { body: { name: 'nightly', agent_id: agentId, session_mode: 'reuse_session', initial_events: [message], ...body } });
const run = async (id: string) => (await call(t.emu, 'POST', `/v1/triggers/${id}/run`)).body;

async function uploadFile(fields: Record<string, string>, headers: Record<string, string> = {}): Promise<string> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append('file', new Blob(['data']), 'data.txt');
  const res = await fetch(t.emu.url + '/v1/files', { method: 'POST', body: fd, headers: { authorization: `Bearer ${t.emu.apiKey}`, ...headers } });
  return ((await res.json()) as { id: string }).id;
}
const withFile = (fileId: string) => ({ initial_events: [{ type: 'user.message', data: { content: [{ type: 'file', file_id: fileId }] } }] });
const versioned = { 'svc-api-version': '2026-09-01-beta' };

describe('emulator: triggers, configuration', () => {
  it('R-TRIG-1 session_mode is new_session or reuse_session', async () => {
    expect((await create({ session_mode: 'new_session' })).status).toBe(201);
    const bad = await create({ session_mode: 'sometimes' });
    expect(bad.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.session_mode' });
  });

  it('R-TRIG-5 R-TRIG-6 initial_events take user messages and reject an interrupt', async () => {
    expect((await create()).body).toMatchObject({ status: 'active', initial_events: [message], paused_reason: null });
    const bad = await create({ initial_events: [message, { type: 'user.interrupt', data: {} }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.initial_events[1].type' });
  });

  it('R-TRIG-2 a reuse_session trigger cannot change agent_id, agent_version, environment_id or resources', async () => {
    const tr = (await create()).body;
    for (const change of [{ agent_id: otherAgentId }, { agent_version: 2 }, { environment_id: 'env_x' }, { resources: [{ type: 'file', file_id: 'f' }] }]) {
      const r = await call(t.emu, 'PATCH', `/v1/triggers/${tr.id}`, { body: change });
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe('failed_precondition_error');
    }
    expect((await call(t.emu, 'PATCH', `/v1/triggers/${tr.id}`, { body: { name: 'renamed' } })).body.name).toBe('renamed');
  });

  it('R-TRIG-3 the same change is accepted after switching to new_session', async () => {
    const tr = (await create()).body;
    await call(t.emu, 'PATCH', `/v1/triggers/${tr.id}`, { body: { session_mode: 'new_session' } });
    const r = await call(t.emu, 'PATCH', `/v1/triggers/${tr.id}`, { body: { agent_id: otherAgentId } });
    expect(r.status).toBe(200);
    expect(r.body.agent_id).toBe(otherAgentId);
  });

  it('R-TRIG-4 an update re-validates unchanged initial_events', async () => {
    const fileId = await uploadFile({}, versioned);
    const tr = (await create(withFile(fileId))).body;
    await call(t.emu, 'DELETE', `/v1/files/${fileId}`);
    const r = await call(t.emu, 'PATCH', `/v1/triggers/${tr.id}`, { body: { name: 'touch' } });
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.initial_events[0].data.content[0].file_id' });
  });

  it('R-FILE-8 R-FILE-9 a compatibility-format or batch file cannot go to a session: 400 failed_precondition_error', async () => {
    const compat = await uploadFile({});
    const batch = await uploadFile({ purpose: 'batch' }, versioned);
    for (const id of [compat, batch]) {
      const r = await create(withFile(id));
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe('failed_precondition_error');
    }
  });

  it('R-TRIG-19 the list filters by agent_id', async () => {
    const mine = (await create({ agent_id: otherAgentId, session_mode: 'new_session' })).body;
    const r = await call(t.emu, 'GET', `/v1/triggers?agent_id=${otherAgentId}&page_size=1000`);
    expect(r.body.items.map((x: any) => x.id)).toContain(mine.id);
    expect(r.body.items.every((x: any) => x.agent_id === otherAgentId)).toBe(true);
  });
});

describe('emulator: trigger runs', () => {
  it('R-TRIG-8 a manual run without sessions in the emulator is 400 failed_precondition_error', async () => {
    t.emu.services.sessions = undefined;
    const tr = (await create()).body;
    const r = await call(t.emu, 'POST', `/v1/triggers/${tr.id}/run`);
    expect(r.body.error.type).toBe('failed_precondition_error');
  });

  it('R-TRIG-8 a manual new_session run creates a session, sends the events and records context manual', async () => {
    const fake = useFake();
    const tr = (await create({ session_mode: 'new_session' })).body;
    const a = await run(tr.id);
    const b = await run(tr.id);
    expect(a).toMatchObject({ trigger_id: tr.id, context: { type: 'manual' }, status: 'succeeded' });
    expect(a.session_id).not.toBe(b.session_id);
    expect(fake.created[0]).toMatchObject({ agent_id: agentId });
    expect(fake.sent.map((s) => s.events)).toEqual([[message], [message]]);
    const runs = await call(t.emu, 'GET', `/v1/triggers/${tr.id}/runs`);
    expect(runs.body.items.map((x: any) => x.id)).toEqual([b.id, a.id]);
  });

  it('R-TRIG-7 a reuse_session trigger sends to its existing session', async () => {
    const fake = useFake();
    const tr = (await create()).body;
    const a = await run(tr.id);
    const b = await run(tr.id);
    expect(b.session_id).toBe(a.session_id);
    expect(fake.created).toHaveLength(1);
    expect(fake.sent.map((s) => s.id)).toEqual([a.session_id, a.session_id]);
  });

  it('R-TRIG-10 a run whose session cannot be created fails with error type fire_failed', async () => {
    useFake().refuseCreate = true;
    const tr = (await create()).body;
    expect(await run(tr.id)).toMatchObject({ status: 'failed', session_id: null, error: { type: 'fire_failed' } });
  });

  it('R-TRIG-12 R-TRIG-13 runs skip a failed idle session and a full queue', async () => {
    const fake = useFake();
    const tr = (await create()).body;
    const first = await run(tr.id);
    fake.failed.add(first.session_id);
    expect(await run(tr.id)).toMatchObject({ status: 'skipped', session_id: first.session_id, error: { type: 'session_failed' } });
    fake.failed.clear();
    fake.full.add(first.session_id);
    expect(await run(tr.id)).toMatchObject({ status: 'skipped', error: { type: 'session_queue_full' } });
    expect(fake.sent).toHaveLength(1);
  });

  it('R-TRIG-14 R-TRIG-17 three consecutive skips of the same session pause the trigger with paused_reason', async () => {
    const fake = useFake();
    const tr = (await create()).body;
    const first = await run(tr.id);
    fake.failed.add(first.session_id);
    await run(tr.id);
    fake.failed.clear();
    fake.full.add(first.session_id);
    await run(tr.id);
    expect((await call(t.emu, 'GET', `/v1/triggers/${tr.id}`)).body.status).toBe('active');
    await run(tr.id);
    const paused = (await call(t.emu, 'GET', `/v1/triggers/${tr.id}`)).body;
    expect(paused).toMatchObject({ status: 'paused', paused_reason: { session_id: first.session_id, error: { type: 'session_queue_full' } } });
    expect((await call(t.emu, 'POST', `/v1/triggers/${tr.id}/run`)).body.error.type).toBe('failed_precondition_error');
  });

  it('R-TRIG-15 any other outcome resets the consecutive-skip count', async () => {
    const fake = useFake();
    const tr = (await create()).body;
    const first = await run(tr.id);
    const skipTwice = async () => {
      fake.failed.add(first.session_id);
      await run(tr.id);
      await run(tr.id);
      fake.failed.clear();
    };
    await skipTwice();
    expect((await run(tr.id)).status).toBe('succeeded');
    await skipTwice();
    expect((await call(t.emu, 'GET', `/v1/triggers/${tr.id}`)).body.status).toBe('active');
  });

  it('R-TRIG-14 pause and resume move the trigger and clear paused_reason', async () => {
    const tr = (await create()).body;
    expect((await call(t.emu, 'POST', `/v1/triggers/${tr.id}/pause`)).body).toMatchObject({ status: 'paused', paused_reason: null });
    expect((await call(t.emu, 'POST', `/v1/triggers/${tr.id}/resume`)).body).toMatchObject({ status: 'active', paused_reason: null });
  });
});
