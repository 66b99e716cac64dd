// Narrow unit tests of the HTTP layer against a scripted loopback server. Rules: R-VERS-1, R-VERS-2, R-VERS-7, R-VERS-8,
// R-VERS-10, R-ERR-13, R-ERR-14, R-ERR-17, R-AUTH-1, R-REQ-1, R-REQ-5, R-STREAM-2
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { exitCodeFor } from '../../src/runtime/errors';
import { scriptedServer, type Scripted } from '../helpers/scripted-server';

let server: Scripted;
let ORIGIN = '';

beforeEach(async () => {
  server = await scriptedServer();
  ORIGIN = server.url;
});
afterEach(() => server.close());

function client(extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  const warnings: string[] = [];
  const waits: number[] = [];
  const c = new ApiClient({
    baseUrl: ORIGIN,
    credential: 'sk_x',
    apiVersion: '2026-09-01-beta',
    userAgent: 'svc/test',
    maxRetries: 3,
    warn: (l) => warnings.push(l),
    sleep: async (ms) => void waits.push(ms),
    ...extra,
  });
  return { c, warnings, waits };
}

describe('ApiClient', () => {
  it('R-VERS-1 R-VERS-2 sends the version header, Bearer credential, User-Agent and Accept', async () => {
    server.on('GET', '/v1/agents', { status: 200, body: { items: [] } });
    await client().c.json({ method: 'GET', path: '/v1/agents' });
    expect(server.seen[0].headers).toMatchObject({
      'svc-api-version': '2026-09-01-beta',
      authorization: 'Bearer sk_x',
      'user-agent': 'svc/test',
      accept: 'application/json',
    });
  });

  it('R-VERS-10 warns once per run when responses carry Deprecation or Sunset', async () => {
    server.on('GET', '/v1/agents', { status: 200, body: {}, headers: { deprecation: 'true', sunset: 'Sat, 01 May 2027 00:00:00 GMT' } }, 2);
    const { c, warnings } = client();
    await c.json({ method: 'GET', path: '/v1/agents' });
    await c.json({ method: 'GET', path: '/v1/agents' });
    expect(warnings).toEqual(['warning: API version 2026-09-01-beta is deprecated and is retired after Sat, 01 May 2027 00:00:00 GMT; upgrade svc']);
  });

  it('R-ERR-17 exceeded_current_quota_error is never retried', async () => {
    server.on('GET', '/v1/agents', { status: 429, body: { error: { type: 'exceeded_current_quota_error', message: 'quota', request_id: 'req_q' } } });
    const { c, waits } = client();
    const err = await c.json({ method: 'GET', path: '/v1/agents' }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(exitCodeFor(err)).toBe(8);
    expect(waits).toEqual([]);
  });

  it('R-ERR-13 R-VERS-8 an unknown error type is handled by its status', async () => {
    server.on('GET', '/v1/agents/x', { status: 404, body: { error: { type: 'brand_new_error', message: 'gone', request_id: 'r' } } });
    const err = await client()
      .c.json({ method: 'GET', path: '/v1/agents/x' })
      .catch((e) => e);
    expect(err.type).toBe('brand_new_error');
    expect(exitCodeFor(err)).toBe(6);
  });

  it('R-ERR-14 a body of another shape is tolerated: exit 9, message with the status', async () => {
    server.on('POST', '/v1/agents', { status: 400, body: '<html>bad gateway</html>' });
    const err = await client()
      .c.json({ method: 'POST', path: '/v1/agents', json: {} })
      .catch((e) => e);
    expect(err.malformed).toBe(true);
    expect(err.status).toBe(400);
    expect(exitCodeFor(err)).toBe(9);
  });

  it('a 2xx body that is not JSON is exit 9', async () => {
    server.on('GET', '/v1/agents', { status: 200, body: 'not json' });
    const err = await client()
      .c.json({ method: 'GET', path: '/v1/agents' })
      .catch((e) => e);
    expect(exitCodeFor(err)).toBe(9);
  });

  it('a write without an Idempotency-Key is not retried after a network error', async () => {
    server.on('PATCH', '/v1/agents/a', 'cut', 2);
    const { c, waits } = client();
    const err = await c.json({ method: 'PATCH', path: '/v1/agents/a', json: {} }).catch((e) => e);
    expect(exitCodeFor(err)).toBe(10);
    expect(err.message).toBe(`cannot reach ${ORIGIN}: the connection was cut (the other side closed it)`);
    expect(waits).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it('R-AUTH-1 a /v1/files request without the version header still carries the Bearer credential', async () => {
    server.on('GET', '/v1/files', { status: 200, body: { data: [] } });
    await client().c.json({ method: 'GET', path: '/v1/files', versionHeader: false });
    expect(server.seen[0].headers.authorization).toBe('Bearer sk_x');
    expect(server.seen[0].headers['svc-api-version']).toBeUndefined();
  });

  it('R-REQ-1 the /v1 path is appended to a base URL that has a path of its own', async () => {
    server.on('GET', '/gateway/svc/v1/agents', { status: 200, body: { items: [] } });
    const { data } = await client({ baseUrl: `${ORIGIN}/gateway/svc/` }).c.json({ method: 'GET', path: '/v1/agents' });
    expect(data).toEqual({ items: [] });
  });

  it('R-REQ-5 a JSON body is sent as application/json, serialised once', async () => {
    server.on('POST', '/v1/agents', { status: 201, body: {} });
    await client().c.json({ method: 'POST', path: '/v1/agents', json: { name: 'a', model: 'm' } });
    expect(server.seen[0].headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.seen[0].body)).toEqual({ name: 'a', model: 'm' });
  });

  it('R-VERS-7 unknown response headers and members are tolerated and kept', async () => {
    server.on('GET', '/v1/agents/a', { status: 200, body: '{"id":"a","brand_new":{"x":[1]}}', headers: { 'x-brand-new-header': 'yes', 'svc-brand-new': '1' } });
    const r = await client().c.json({ method: 'GET', path: '/v1/agents/a' });
    expect(r.data).toEqual({ id: 'a', brand_new: { x: [1] } });
    expect(r.headers['x-brand-new-header']).toBe('yes');
  });

  it('R-STREAM-2 a stream request sends Accept: text/event-stream', async () => {
    const { follow } = await import('../../src/api/stream/resumable');
    server.on('GET', (p) => p.startsWith('/v1/sessions/s1/') && p.includes('stream'), {
      status: 404,
      body: { error: { type: 'resource_not_found_error', message: 'gone', request_id: 'r' } },
    });
    const items = follow({ client: client().c, sessionId: 's1', cursor: 'now', sleep: async () => {} });
    const err = await (async () => {
      for await (const _ of items) void _;
    })().catch((e) => e);
    expect(err).toMatchObject({ status: 404 });
    expect(server.seen[0].headers.accept).toBe('text/event-stream');
  });
});
