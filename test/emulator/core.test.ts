// Rules proved here (emulator core): R-VERS-3, R-VERS-4, R-VERS-5, R-VERS-9, R-AUTH-2, R-AUTH-3, R-AUTH-9, R-ERR-1, R-ERR-2, R-ERR-3, R-ERR-4, R-ERR-5,
// R-REQ-7, R-REQ-9, R-REQ-11, R-REQ-13, R-REQ-15, R-REQ-16, R-PAGE-1, R-PAGE-2, R-PAGE-3, R-PAGE-4, R-PAGE-5, R-PAGE-7, R-PAGE-9, R-IDEM-2, R-IDEM-5, R-IDEM-7, R-IDEM-8,
// R-IDEM-1, R-IDEM-9, R-LIMIT-6, R-ERR-6, R-ERR-8, R-REQ-4
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const agent = { name: 'core', model: 'm' };

describe('emulator core rules', () => {
  it('R-VERS-4 R-VERS-5 an unknown version value, a bare date included, is 400 invalid_request_error', async () => {
    for (const v of ['2026-09-01', '2030-01-01-beta']) {
      const r = await call(t.emu, 'GET', '/v1/agents', { headers: { 'svc-api-version': v } });
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe('invalid_request_error');
    }
  });

  it('R-VERS-9 responses carry neither Deprecation nor Sunset', async () => {
    const r = await call(t.emu, 'GET', '/v1/agents');
    expect(r.headers.get('deprecation')).toBeNull();
    expect(r.headers.get('sunset')).toBeNull();
  });

  it('R-AUTH-2 a missing Authorization header is 401 authentication_error', async () => {
    const r = await call(t.emu, 'GET', '/v1/agents', { headers: { authorization: undefined } });
    expect(r.status).toBe(401);
    expect(r.body.error.type).toBe('authentication_error');
  });

  it('R-AUTH-3 an unknown credential is 401', async () => {
    expect((await call(t.emu, 'GET', '/v1/agents', { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
  });

  it('R-AUTH-9 a worker credential is not an API key: 403 permission_denied_error', async () => {
    const key = t.emu.credentials.issue({ kind: 'environment', environmentId: 'env_1' });
    const r = await call(t.emu, 'GET', '/v1/agents', { headers: { authorization: `Bearer ${key}` } });
    expect(r.status).toBe(403);
    expect(r.body.error.type).toBe('permission_denied_error');
  });

  it('R-ERR-1 R-ERR-2 R-ERR-3 R-ERR-4 an error body is {error:{type,message,request_id}} and request_id equals Svc-Request-Id', async () => {
    const r = await call(t.emu, 'GET', '/v1/agents/none');
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(typeof r.body.error.type).toBe('string');
    expect(typeof r.body.error.message).toBe('string');
    expect(r.body.error.request_id).toBe(r.headers.get('svc-request-id'));
  });

  it('every response carries Svc-Request-Id', async () => {
    expect((await call(t.emu, 'GET', '/v1/agents')).headers.get('svc-request-id')).toMatch(/^req_/);
  });

  it('R-REQ-7 an undeclared Content-Type is 400 invalid_request_error even when the body parses', async () => {
    const r = await call(t.emu, 'POST', '/v1/agents', { raw: JSON.stringify(agent), headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('invalid_request_error');
  });

  it('R-REQ-9 R-ERR-5 R-REQ-15 an unknown member is 400 invalid_parameter_error with param naming its path', async () => {
    const r = await call(t.emu, 'POST', '/v1/agents', { body: { ...agent, mcp_servers: [{ type: 'url', name: 'a', url: 'u', colour: 1 }] } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.mcp_servers[0].colour' });
  });

  it('R-REQ-13 a wrong type or a missing required member is 400 with param', async () => {
    expect((await call(t.emu, 'POST', '/v1/agents', { body: { name: 1, model: 'm' } })).body.error.param).toBe('body.name');
    expect((await call(t.emu, 'POST', '/v1/agents', { body: { name: 'x' } })).body.error.param).toBe('body.model');
  });

  it('R-REQ-11 explicit null on a non-nullable field in PATCH is 400', async () => {
    const id = (await call(t.emu, 'POST', '/v1/agents', { body: agent })).body.id;
    const r = await call(t.emu, 'PATCH', `/v1/agents/${id}`, { body: { system: null } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.system' });
  });

  it('R-REQ-10 an omitted field in PATCH means no change, and an unchanged PATCH makes no version', async () => {
    const id = (await call(t.emu, 'POST', '/v1/agents', { body: { ...agent, system: 'keep' } })).body.id;
    const r = await call(t.emu, 'PATCH', `/v1/agents/${id}`, { body: { description: 'd' } });
    expect(r.body).toMatchObject({ system: 'keep', description: 'd', version: 2 });
    expect((await call(t.emu, 'PATCH', `/v1/agents/${id}`, { body: { description: 'd' } })).body.version).toBe(2);
  });

  it('R-REQ-16 a JSON body over 4 MiB is 400 invalid_request_error, not 413', async () => {
    const r = await call(t.emu, 'POST', '/v1/agents', { body: { ...agent, system: 'x'.repeat(4 * 1024 * 1024) } });
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('invalid_request_error');
  });

  it('R-PAGE-2 R-PAGE-3 page_size outside 1..1000 is 400 with param query.page_size', async () => {
    for (const s of ['0', '1001', 'x']) {
      const r = await call(t.emu, 'GET', `/v1/agents?page_size=${s}`);
      expect(r.status).toBe(400);
      expect(r.body.error.param).toBe('query.page_size');
    }
  });

  it('R-PAGE-1 R-PAGE-4 pages with an opaque next_page_token to the end, every item once', async () => {
    for (let i = 0; i < 5; i++) await call(t.emu, 'POST', '/v1/agents', { body: { name: `p${i}`, model: 'm' } });
    const all = (await call(t.emu, 'GET', '/v1/agents?page_size=1000')).body.items.map((a: { id: string }) => a.id);
    const seen: string[] = [];
    let token: string | null = null;
    do {
      const r: { body: { items: { id: string }[]; next_page_token: string | null } } = await call(
        t.emu,
        'GET',
        `/v1/agents?page_size=2${token ? `&page_token=${token}` : ''}`,
      );
      seen.push(...r.body.items.map((a) => a.id));
      token = r.body.next_page_token;
    } while (token);
    expect(seen).toEqual(all);
  });

  it('a page_token the service did not issue is 400 with param query.page_token', async () => {
    expect((await call(t.emu, 'GET', '/v1/agents?page_token=garbage')).body.error.param).toBe('query.page_token');
  });

  it('R-PAGE-5 official_only=true lists only official agents', async () => {
    await call(t.emu, 'POST', '/v1/agents', { body: agent });
    expect((await call(t.emu, 'GET', '/v1/agents?official_only=true')).body.items).toEqual([]);
    expect((await call(t.emu, 'GET', '/v1/agents?official_only=maybe')).body.error.param).toBe('query.official_only');
  });

  it('R-PAGE-7 R-PAGE-9 time filters: gt/lt exclude the bound, gte/lte include it', async () => {
    const a = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'timed', model: 'm' } })).body;
    const at = encodeURIComponent(a.created_at);
    const ids = async (q: string) => (await call(t.emu, 'GET', `/v1/agents?page_size=1000&${q}`)).body.items.map((x: { id: string }) => x.id);
    expect(await ids(`created_at_gte=${at}`)).toContain(a.id);
    expect(await ids(`created_at_gt=${at}`)).not.toContain(a.id);
    expect(await ids(`created_at_lte=${at}`)).toContain(a.id);
    expect(await ids(`created_at_lt=${at}`)).not.toContain(a.id);
  });

  it('R-IDEM-2 a key over 255 bytes is 400 invalid_parameter_error', async () => {
    const r = await call(t.emu, 'POST', '/v1/agents', { body: agent, headers: { 'idempotency-key': 'k'.repeat(256) } });
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'header.idempotency-key' });
  });

  it('R-IDEM-5 R-IDEM-6 the same key with different bytes is 409 conflict_error', async () => {
    const headers = { 'idempotency-key': 'core-diff' };
    expect((await call(t.emu, 'POST', '/v1/agents', { body: agent, headers })).status).toBe(201);
    const r = await call(t.emu, 'POST', '/v1/agents', { raw: JSON.stringify(agent, null, 1), headers: { ...headers, 'content-type': 'application/json' } });
    expect(r.status).toBe(409);
    expect(r.body.error.type).toBe('conflict_error');
  });

  it('R-IDEM-7 the same key while the original is still running is 409', async () => {
    const before = (await call(t.emu, 'GET', '/_emulator/stats')).body.delayed ?? 0;
    await call(t.emu, 'POST', '/_emulator/faults', { body: { delay_ms: 500 } });
    const headers = { 'idempotency-key': 'core-inflight' };
    const first = call(t.emu, 'POST', '/v1/agents', { body: agent, headers });
    while (((await call(t.emu, 'GET', '/_emulator/stats')).body.delayed ?? 0) === before) await new Promise((r) => setTimeout(r, 5));
    await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
    const second = await call(t.emu, 'POST', '/v1/agents', { body: agent, headers });
    expect(second.status).toBe(409);
    expect(second.body.error.type).toBe('conflict_error');
    expect((await first).status).toBe(201);
  });

  it('R-IDEM-8 a validation failure is not stored: the same key then succeeds', async () => {
    const headers = { 'idempotency-key': 'core-validation' };
    expect((await call(t.emu, 'POST', '/v1/agents', { body: { name: 'x' }, headers })).status).toBe(400);
    expect((await call(t.emu, 'POST', '/v1/agents', { body: { name: 'x' }, headers: { ...headers } })).status).toBe(400);
    expect((await call(t.emu, 'POST', '/v1/agents', { body: agent, headers: { 'idempotency-key': 'core-validation' } })).status).toBe(201);
  });

  it('the admin paths are not under /v1 and need no key', async () => {
    expect((await call(t.emu, 'GET', '/_emulator/stats', { headers: { authorization: undefined } })).status).toBe(200);
  });

  it('R-IDEM-1 a key of exactly 255 bytes is accepted', async () => {
    const key = 'k'.repeat(255);
    const r = await call(t.emu, 'POST', '/v1/agents', { body: { ...agent, name: 'idem-255' }, headers: { 'idempotency-key': key } });
    expect(r.status).toBe(201);
  });

  it('R-IDEM-9 an authentication failure is not stored: the same key then creates', async () => {
    const headers = { 'idempotency-key': 'core-auth-first' };
    const denied = await call(t.emu, 'POST', '/v1/agents', {
      body: { ...agent, name: 'idem-auth' },
      headers: { ...headers, authorization: 'Bearer sk_not_a_key' },
    });
    expect(denied.status).toBe(401);
    const r = await call(t.emu, 'POST', '/v1/agents', { body: { ...agent, name: 'idem-auth' }, headers });
    expect(r.status).toBe(201);
    expect(r.body.name).toBe('idem-auth');
  });

  it('R-LIMIT-6 throttling is 429 rate_limit_reached_error with Retry-After in integer seconds', async () => {
    await call(t.emu, 'POST', '/_emulator/faults', { body: { rate_limit_every: 1, retry_after: 3 } });
    const r = await call(t.emu, 'GET', '/v1/agents');
    await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
    expect(r.status).toBe(429);
    expect(r.body.error.type).toBe('rate_limit_reached_error');
    expect(r.headers.get('retry-after')).toBe('3');
  });

  it('R-ERR-6 R-ERR-8 each error type comes with its status', async () => {
    const seen: Array<[string, number]> = [];
    const add = (r: { status: number; body: any }) => seen.push([r.body.error.type, r.status]);
    add(await call(t.emu, 'POST', '/v1/agents', { body: { ...agent, colour: 'red' } }));
    add(await call(t.emu, 'GET', '/v1/agents', { headers: { 'svc-api-version': undefined } }));
    add(await call(t.emu, 'GET', '/v1/agents', { headers: { authorization: 'Bearer sk_nope' } }));
    const envKey = t.emu.credentials.issue({ kind: 'environment', environmentId: 'env_x' });
    add(await call(t.emu, 'GET', '/v1/agents', { headers: { authorization: `Bearer ${envKey}` } }));
    add(await call(t.emu, 'GET', '/v1/agents/agent_missing'));
    const key = { 'idempotency-key': 'err-8-conflict' };
    await call(t.emu, 'POST', '/v1/agents', { body: { ...agent, name: 'err-8-a' }, headers: key });
    add(await call(t.emu, 'POST', '/v1/agents', { body: { ...agent, name: 'err-8-b' }, headers: key }));
    const id = (await call(t.emu, 'POST', '/v1/agents', { body: { ...agent, name: 'err-8' } })).body.id;
    await call(t.emu, 'POST', '/_emulator/faults', { body: { fail_write_every: 1 } });
    add(await call(t.emu, 'PATCH', `/v1/agents/${id}`, { body: { description: 'x' } }));
    await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
    expect(seen).toEqual([
      ['invalid_parameter_error', 400],
      ['invalid_request_error', 400],
      ['authentication_error', 401],
      ['permission_denied_error', 403],
      ['resource_not_found_error', 404],
      ['conflict_error', 409],
      ['server_error', 500],
    ]);
  });

  it('R-REQ-4 timestamps are RFC 3339 date-time strings', async () => {
    const a = (await call(t.emu, 'POST', '/v1/agents', { body: { ...agent, name: 'stamped' } })).body;
    const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
    expect(a.created_at).toMatch(rfc3339);
    expect(a.updated_at).toMatch(rfc3339);
  });
});
