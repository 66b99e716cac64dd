// Rules proved here (and docs/service.md common shapes, environment keys): R-PAGE-1, R-PAGE-6, R-CONF-29, R-CONF-31, R-REQ-9, R-REQ-10, R-REQ-11, R-REQ-14, R-AUTH-3, R-AUTH-5, R-AUTH-9
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

const create = (body: unknown) => call(t.emu, 'POST', '/v1/environments', { body });

async function issueKey(envId: string, accept = 'application/json'): Promise<Response> {
  return fetch(`${t.emu.url}/_emulator/environments/${envId}/keys`, { method: 'POST', headers: { accept } });
}

describe('emulator: environments', () => {
  it('docs/service.md a created environment defaults to a cloud config and carries the common members', async () => {
    const r = await create({ name: 'plain' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'plain', description: '', config: { type: 'cloud' }, metadata: {}, archived_at: null });
    expect(typeof r.body.id).toBe('string');
    expect(typeof r.body.created_at).toBe('string');
    const got = await call(t.emu, 'GET', `/v1/environments/${r.body.id}`);
    expect(got.body).toEqual(r.body);
  });

  it('R-CONF-29 route_all accepts an empty hosts list', async () => {
    const r = await create({ name: 'all', config: { type: 'cloud', proxy: { mode: 'route_all', hosts: [] } } });
    expect(r.status).toBe(201);
    expect(r.body.config).toEqual({ type: 'cloud', proxy: { mode: 'route_all', hosts: [] } });
  });

  it('R-CONF-31 limited accepts and stores a hosts list it does not enforce', async () => {
    const r = await create({ name: 'lim', config: { type: 'cloud', proxy: { mode: 'limited', hosts: ['example.com'] } } });
    expect(r.status).toBe(201);
    expect(r.body.config.proxy).toEqual({ mode: 'limited', hosts: ['example.com'] });
  });

  it.each([
    [{ name: 'x', config: { type: 'on_prem' } }, 'body.config.type'],
    [{ name: 'x', config: { type: 'cloud', proxy: { mode: 'some' } } }, 'body.config.proxy.mode'],
    [{ name: 'x', config: { type: 'self_hosted', proxy: { mode: 'route_all', hosts: [] } } }, 'body.config.proxy'],
    [{ name: 'x', region: 'eu' }, 'body.region'],
    [{ description: 'no name' }, 'body.name'],
  ])('R-REQ-14 R-REQ-9 a bad environment body is 400 invalid_parameter_error (%j)', async (body, param) => {
    const r = await create(body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param });
  });

  it('R-REQ-10 R-REQ-11 PATCH changes what it names, keeps the rest and refuses null', async () => {
    const env = (await create({ name: 'before', description: 'kept', config: { type: 'self_hosted' } })).body;
    const r = await call(t.emu, 'PATCH', `/v1/environments/${env.id}`, { body: { name: 'after' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'after', description: 'kept', config: { type: 'self_hosted' } });
    const bad = await call(t.emu, 'PATCH', `/v1/environments/${env.id}`, { body: { description: null } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.description' });
  });

  it('docs/service.md archive stamps archived_at, hides the environment from lists unless include_archived, and blocks updates', async () => {
    const env = (await create({ name: 'to-archive' })).body;
    const r = await call(t.emu, 'POST', `/v1/environments/${env.id}/archive`);
    expect(r.status).toBe(200);
    expect(typeof r.body.archived_at).toBe('string');
    // Archiving again answers the object unchanged: the first archived_at stays (the clock has moved on, so a re-stamp would show).
    while (new Date().toISOString() === r.body.archived_at) await new Promise((done) => setTimeout(done, 1));
    const again = await call(t.emu, 'POST', `/v1/environments/${env.id}/archive`);
    expect(again.status).toBe(200);
    expect(again.body.archived_at).toBe(r.body.archived_at);
    expect(again.body.updated_at).toBe(r.body.updated_at);
    const ids = async (q: string) => (await call(t.emu, 'GET', `/v1/environments?page_size=1000${q}`)).body.items.map((e: { id: string }) => e.id);
    expect(await ids('')).not.toContain(env.id);
    expect(await ids('&include_archived=true')).toContain(env.id);
    const patch = await call(t.emu, 'PATCH', `/v1/environments/${env.id}`, { body: { name: 'late' } });
    expect(patch.status).toBe(400);
    expect(patch.body.error.type).toBe('failed_precondition_error');
  });

  it('R-PAGE-1 lists page through {items, next_page_token}', async () => {
    await create({ name: 'p1' });
    await create({ name: 'p2' });
    const first = await call(t.emu, 'GET', '/v1/environments?page_size=1');
    expect(first.body.items).toHaveLength(1);
    expect(typeof first.body.next_page_token).toBe('string');
    const second = await call(t.emu, 'GET', `/v1/environments?page_size=1&page_token=${first.body.next_page_token}`);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
  });

  it('R-PAGE-6 official_only=true lists only official environments, false lists project ones', async () => {
    const env = (await create({ name: 'project-env' })).body;
    const official = await call(t.emu, 'GET', '/v1/environments?official_only=true&page_size=1000');
    expect(official.status).toBe(200);
    expect(official.body.items.map((e: { id: string }) => e.id)).not.toContain(env.id);
    const all = await call(t.emu, 'GET', '/v1/environments?official_only=false&page_size=1000');
    expect(all.body.items.map((e: { id: string }) => e.id)).toContain(env.id);
  });

  it('R-PAGE-6 official_only other than true or false is 400 invalid_parameter_error', async () => {
    const r = await call(t.emu, 'GET', '/v1/environments?official_only=yes');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'query.official_only' });
  });

  it('R-AUTH-5 a deleted environment is 404 and its work keys are rejected with 401', async () => {
    const env = (await create({ name: 'gone', config: { type: 'self_hosted' } })).body;
    const { key } = (await (await issueKey(env.id)).json()) as { key: string };
    expect((await call(t.emu, 'DELETE', `/v1/environments/${env.id}`)).status).toBe(204);
    const got = await call(t.emu, 'GET', `/v1/environments/${env.id}`);
    expect(got.status).toBe(404);
    expect(got.body.error.type).toBe('resource_not_found_error');
    const poll = await call(t.emu, 'GET', `/v1/environments/${env.id}/work/poll`, { headers: { authorization: `Bearer ${key}`, 'svc-worker-id': 'w' } });
    expect(poll.status).toBe(401);
    expect(poll.body.error.type).toBe('authentication_error');
  });

  it('R-AUTH-9 an environment work key is not accepted on the project API (403)', async () => {
    const env = (await create({ name: 'keyed', config: { type: 'self_hosted' } })).body;
    const res = await issueKey(env.id);
    expect(res.status).toBe(201);
    const { key, environment_id } = (await res.json()) as { key: string; environment_id: string };
    expect(environment_id).toBe(env.id);
    const r = await call(t.emu, 'GET', '/v1/environments', { headers: { authorization: `Bearer ${key}` } });
    expect(r.status).toBe(403);
    expect(r.body.error.type).toBe('permission_denied_error');
  });

  it('R-AUTH-3 the admin path prints a key a shell can source, and a made-up key is 401', async () => {
    const env = (await create({ name: 'printed', config: { type: 'self_hosted' } })).body;
    const text = await (await issueKey(env.id, 'text/plain')).text();
    expect(text).toMatch(/^export SVC_ENVIRONMENT_KEY=\S+\n$/);
    const forged = await call(t.emu, 'GET', `/v1/environments/${env.id}/work`, { headers: { authorization: 'Bearer ek_emu_forged' } });
    expect(forged.status).toBe(401);
  });

  it('docs/service.md work keys are issued only for self_hosted environments (400 failed_precondition_error)', async () => {
    const env = (await create({ name: 'cloudy' })).body;
    const res = await issueKey(env.id);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('failed_precondition_error');
  });
});
