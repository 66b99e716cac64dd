// Rules proved here: R-SKILL-1..4, R-LIMIT-4, R-CONF-8, R-CONF-9, R-CONF-10, R-CONF-11
import { describe, expect, it } from 'vitest';
import { checkSkillRefs } from '../../src/emulator/resources/skills';
import { MiB } from '../../src/wire/limits';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

async function post(path: string, fields: Record<string, string | Blob>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields))
    if (typeof v === 'string') fd.append(k, v);
    else fd.append(k, v, 'skill.zip');
  const res = new Response(fd);
  return call(t.emu, 'POST', path, { raw: Buffer.from(await res.arrayBuffer()), headers: { 'content-type': res.headers.get('content-type')! } });
}

const download = async (path: string) =>
  Buffer.from(
    await (await fetch(t.emu.url + path, { headers: { authorization: `Bearer ${t.emu.apiKey}`, 'svc-api-version': '2026-09-01-beta' } })).arrayBuffer(),
  ).toString();

/** The error a reference check throws, as `{type, param}`. */
function refError(refs: any[]): { type?: string; param?: string } {
  try {
    checkSkillRefs(t.emu, refs, 'body.skills');
    return {};
  } catch (e: any) {
    return { type: e.type, param: e.param };
  }
}

describe('emulator: skills', () => {
  it('R-SKILL-1 R-SKILL-3 a multipart package creates a skill at version 1 with its categories', async () => {
    const r = await post('/v1/skills', { name: 'pdf-tools', categories: 'productivity,dev_tools', file: new Blob(['v1 bytes']) });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'pdf-tools', latest_version: 1, categories: ['productivity', 'dev_tools'] });
  });

  it('R-SKILL-3 a skill without categories omits the member, and an unknown category is 400', async () => {
    const r = await post('/v1/skills', { file: new Blob(['x']) });
    expect(r.body.categories).toBeUndefined();
    expect(r.body.name).toBe('skill');
    const bad = await post('/v1/skills', { categories: 'gardening', file: new Blob(['x']) });
    expect(bad.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.categories[0]' });
  });

  it('R-SKILL-4 the list filters by category', async () => {
    await post('/v1/skills', { name: 'ledger', categories: 'finance', file: new Blob(['x']) });
    const r = await call(t.emu, 'GET', '/v1/skills?category=finance');
    expect(r.body.items.map((s: any) => s.name)).toEqual(['ledger']);
    expect((await call(t.emu, 'GET', '/v1/skills?category=cooking')).body.error.param).toBe('query.category');
  });

  it('R-SKILL-2 versions are immutable: a new upload adds version 2 and version 1 keeps its bytes', async () => {
    const s = await post('/v1/skills', { file: new Blob(['first']) });
    const v2 = await post(`/v1/skills/${s.body.id}/versions`, { file: new Blob(['second']) });
    expect(v2.status).toBe(201);
    expect(v2.body).toMatchObject({ skill_id: s.body.id, version: 2, size_bytes: 6 });
    expect(await download(`/v1/skills/${s.body.id}/versions/1/content`)).toBe('first');
    expect(await download(`/v1/skills/${s.body.id}/versions/2/content`)).toBe('second');
    const list = await call(t.emu, 'GET', `/v1/skills/${s.body.id}/versions`);
    expect(list.body.items.map((v: any) => v.version)).toEqual([2, 1]);
    expect((await call(t.emu, 'GET', `/v1/skills/${s.body.id}`)).body.latest_version).toBe(2);
    expect((await call(t.emu, 'GET', `/v1/skills/${s.body.id}/versions/3`)).status).toBe(404);
  });

  it('R-LIMIT-4 a package over 64 MiB is 400 invalid_request_error', async () => {
    const r = await post('/v1/skills', { file: new Blob([Buffer.alloc(64 * MiB + 1)]) });
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('invalid_request_error');
  });

  it('R-CONF-8 R-CONF-9 R-CONF-10 references: omitted freezes the current version, "latest" stays, exact versions are checked', async () => {
    const s = await post('/v1/skills', { file: new Blob(['a']) });
    await post(`/v1/skills/${s.body.id}/versions`, { file: new Blob(['b']) });
    const other = await post('/v1/skills', { file: new Blob(['c']) });
    expect(checkSkillRefs(t.emu, [{ skill_id: s.body.id }, { skill_id: other.body.id, version: 'latest' }], 'body.skills')).toEqual([
      { skill_id: s.body.id, version: 2 },
      { skill_id: other.body.id, version: 'latest' },
    ]);
    expect(checkSkillRefs(t.emu, [{ skill_id: s.body.id, version: 1 }], 'body.skills')).toEqual([{ skill_id: s.body.id, version: 1 }]);
    expect(refError([{ skill_id: s.body.id, version: 9 }])).toEqual({ type: 'invalid_parameter_error', param: 'body.skills[0].version' });
    expect(refError([{ skill_id: 'skill_missing' }])).toEqual({ type: 'invalid_parameter_error', param: 'body.skills[0].skill_id' });
  });

  it('R-CONF-11 mixing "latest" and an exact version for one skill is 400 invalid_parameter_error', async () => {
    const s = await post('/v1/skills', { file: new Blob(['a']) });
    expect(
      refError([
        { skill_id: s.body.id, version: 'latest' },
        { skill_id: s.body.id, version: 1 },
      ]).type,
    ).toBe('invalid_parameter_error');
  });
});
