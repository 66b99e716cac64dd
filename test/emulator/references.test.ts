// Rules proved here: R-CONF-3, R-CONF-5, R-CONF-8, R-CONF-9, R-CONF-10, R-CONF-11, R-CONF-13, R-CONF-14, R-CONF-15, R-REQ-9
// — skill and plugin references on agents and on session agent_overrides, over HTTP.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';
import { zip } from '../helpers/zip';

const t = useEmulator();

async function upload(path: string, file: Buffer, name: string): Promise<any> {
  const fd = new FormData();
  fd.append('file', new Blob([file]), name);
  const res = new Response(fd);
  const r = await call(t.emu, 'POST', path, { raw: Buffer.from(await res.arrayBuffer()), headers: { 'content-type': res.headers.get('content-type')! } });
  expect(r.status).toBe(201);
  return r.body;
}

let skill = '';
let plugin = '';
let official = '';

beforeAll(async () => {
  skill = (await upload('/v1/skills', Buffer.from('v1'), 'refs-skill.zip')).id;
  await upload(`/v1/skills/${skill}/versions`, Buffer.from('v2'), 'refs-skill.zip');
  const pkg = (version: string) => zip({ 'plugin.json': JSON.stringify({ name: 'refs-plugin', version }) });
  plugin = (await upload('/v1/plugins', pkg('1.0.0'), 'p.zip')).plugin.id;
  await upload(`/v1/plugins/${plugin}/versions`, pkg('1.1.0'), 'p.zip');
  official = (await call(t.emu, 'GET', '/v1/plugins?scope=official')).body.items[0].id;
});

const createAgent = (body: Record<string, unknown>) => call(t.emu, 'POST', '/v1/agents', { body: { name: 'with-refs', model: 'm', ...body } });

describe('emulator: skill and plugin references on agents', () => {
  it('R-CONF-8 R-CONF-9 R-CONF-10 skills: omitted version pinned to the current one, "latest" kept, an exact version pinned', async () => {
    const r = await createAgent({ skills: [{ skill_id: skill }, { skill_id: skill, version: 1 }] });
    expect(r.status).toBe(201);
    expect(r.body.skills).toEqual([
      { skill_id: skill, version: 2 },
      { skill_id: skill, version: 1 },
    ]);
    const latest = await createAgent({ skills: [{ skill_id: skill, version: 'latest' }] });
    expect(latest.body.skills).toEqual([{ skill_id: skill, version: 'latest' }]);
  });

  it('R-CONF-10 R-CONF-11 an unknown skill or version, and "latest" mixed with an exact version, are 400 invalid_parameter_error', async () => {
    const cases: Array<[unknown[], string]> = [
      [[{ skill_id: 'skill_missing' }], 'body.skills[0].skill_id'],
      [[{ skill_id: skill, version: 9 }], 'body.skills[0].version'],
      [
        [
          { skill_id: skill, version: 'latest' },
          { skill_id: skill, version: 1 },
        ],
        'body.skills[0].version',
      ],
      [[{ version: 1 }], 'body.skills[0].skill_id'],
      [[{ skill_id: skill, pinned: true }], 'body.skills[0].pinned'],
    ];
    for (const [skills, param] of cases) {
      const r = await createAgent({ skills });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param });
    }
  });

  it('R-CONF-13 R-CONF-14 R-CONF-15 plugins: project pinned at write time or exact, official without a version', async () => {
    const r = await createAgent({ plugins: [{ plugin_id: plugin }, { plugin_id: plugin, version: '1.0.0' }, { plugin_id: official }] });
    expect(r.body.plugins).toEqual([{ plugin_id: plugin, version: '1.1.0' }, { plugin_id: plugin, version: '1.0.0' }, { plugin_id: official }]);
    const bad = await createAgent({ plugins: [{ plugin_id: official, version: 'latest' }] });
    expect(bad.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.plugins[0].version' });
    const unpublished = await createAgent({ plugins: [{ plugin_id: plugin, version: '9.9.9' }] });
    expect(unpublished.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.plugins[0].version' });
  });

  it('R-CONF-10 an update with a bad reference is rejected and makes no new version', async () => {
    const a = (await createAgent({ skills: [{ skill_id: skill }] })).body;
    const bad = await call(t.emu, 'PATCH', `/v1/agents/${a.id}`, { body: { skills: [{ skill_id: skill, version: 7 }] } });
    expect(bad.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.skills[0].version' });
    expect((await call(t.emu, 'GET', `/v1/agents/${a.id}`)).body.version).toBe(1);
    const good = await call(t.emu, 'PATCH', `/v1/agents/${a.id}`, { body: { skills: [{ skill_id: skill, version: 'latest' }] } });
    expect(good.body).toMatchObject({ version: 2, skills: [{ skill_id: skill, version: 'latest' }] });
  });
});

describe('emulator: skill and plugin references in session agent_overrides', () => {
  const newSession = async (agent_overrides: Record<string, unknown>) => {
    const a = (await createAgent({ skills: [{ skill_id: skill, version: 1 }] })).body;
    return call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: a.id, agent_overrides } });
  };

  it('R-CONF-5 R-CONF-3 overrides replace the sets: an array is validated and pinned, null means none', async () => {
    const s = await newSession({ skills: [{ skill_id: skill }], plugins: null });
    expect(s.status).toBe(201);
    expect(s.body.agent_overrides).toEqual({ skills: [{ skill_id: skill, version: 2 }], plugins: null });
    const cleared = await call(t.emu, 'PATCH', `/v1/sessions/${s.body.id}`, { body: { agent_overrides: { skills: null } } });
    expect(cleared.body.agent_overrides).toEqual({ skills: null });
    const history = (await call(t.emu, 'GET', `/v1/sessions/${s.body.id}/events`)).body.items;
    expect(history.find((e: any) => e.type === 'session.updated').data.agent.skills).toEqual([]);
  });

  it('R-CONF-10 R-CONF-15 a bad reference in overrides is 400 with its param, on create and on update', async () => {
    const bad = await newSession({ skills: [{ skill_id: skill, version: 5 }] });
    expect(bad.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.agent_overrides.skills[0].version' });
    const s = (await newSession({})).body;
    const r = await call(t.emu, 'PATCH', `/v1/sessions/${s.id}`, { body: { agent_overrides: { plugins: [{ plugin_id: official, version: '1.0.0' }] } } });
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.agent_overrides.plugins[0].version' });
  });
});
