import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';

// What `svc apply` needs from the emulator: a write count, set labels in metadata on every kind, trigger archive.
const t = useEmulator({ realTimeSchedules: false });

const stats = async () => (await call(t.emu, 'GET', '/_emulator/stats')).body;

async function upload(fields: Record<string, string>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append('file', new Blob(['package bytes']), 'skill.zip');
  const res = new Response(fd);
  return call(t.emu, 'POST', '/v1/skills', { raw: Buffer.from(await res.arrayBuffer()), headers: { 'content-type': res.headers.get('content-type')! } });
}

describe('emulator: what svc apply relies on', () => {
  it('stats count writes apart from requests: reads leave the write count alone', async () => {
    const before = await stats();
    await call(t.emu, 'GET', '/v1/agents');
    const mid = await stats();
    expect(mid.requests).toBe((before.requests ?? 0) + 1);
    expect(mid.writes ?? 0).toBe(before.writes ?? 0);
    await call(t.emu, 'POST', '/v1/environments', { body: { name: 'counted' } });
    expect((await stats()).writes).toBe((before.writes ?? 0) + 1);
  });

  it('a memory store keeps metadata on create and update', async () => {
    const s = (await call(t.emu, 'POST', '/v1/memory-stores', { body: { name: 'labelled', metadata: { team: 'a' } } })).body;
    expect(s.metadata).toEqual({ team: 'a' });
    const u = await call(t.emu, 'PATCH', `/v1/memory-stores/${s.id}`, { body: { metadata: { team: 'b' } } });
    expect(u.status).toBe(200);
    expect(u.body.metadata).toEqual({ team: 'b' });
    expect((await call(t.emu, 'POST', '/v1/memory-stores', { body: { name: 'plain' } })).body.metadata).toEqual({});
  });

  it('a skill upload takes metadata as a JSON form field, and refuses one that is not a map of strings', async () => {
    const ok = await upload({ name: 'labelled-skill', metadata: '{"svc-apply-set":"config"}' });
    expect(ok.status).toBe(201);
    expect(ok.body.metadata).toEqual({ 'svc-apply-set': 'config' });
    const bad = await upload({ name: 'bad-skill', metadata: '{"n":1}' });
    expect(bad.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.metadata.n' });
  });

  it('an archived trigger leaves the list, refuses updates, runs and resumes, and is not scheduled again', async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'trig-agent', model: 'm' } })).body.id;
    const body = {
      name: 'archivable',
      agent_id: agent,
      session_mode: 'new_session',
      initial_events: [],
      schedule: { type: 'cron', expression: '* * * * *', timezone: 'UTC' },
    };
    const trig = (await call(t.emu, 'POST', '/v1/triggers', { body })).body;
    const archived = await call(t.emu, 'POST', `/v1/triggers/${trig.id}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body.archived_at).toBeTruthy();
    const listed = (await call(t.emu, 'GET', '/v1/triggers?page_size=1000')).body.items.map((x: { id: string }) => x.id);
    expect(listed).not.toContain(trig.id);
    expect((await call(t.emu, 'GET', '/v1/triggers?page_size=1000&include_archived=true')).body.items.map((x: { id: string }) => x.id)).toContain(trig.id);
    for (const [method, path, b] of [
      ['PATCH', `/v1/triggers/${trig.id}`, { name: 'x' }],
      ['POST', `/v1/triggers/${trig.id}/run`, undefined],
      ['POST', `/v1/triggers/${trig.id}/resume`, undefined],
    ] as const) {
      expect((await call(t.emu, method, path, { body: b })).body.error).toMatchObject({ type: 'failed_precondition_error' });
    }
    await call(t.emu, 'POST', '/_emulator/clock/advance', { body: { ms: 5 * 60_000 } });
    expect((await call(t.emu, 'GET', `/v1/triggers/${trig.id}/runs`)).body.items).toEqual([]);
  });
});
