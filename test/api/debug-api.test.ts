// Issue 17: SVC_DEBUG=api / --debug=api logs every request and response in full (headers and bodies), with the
// same redaction as every other output: no key, token, secret or credential value, ever.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client';
import { vaults } from '../../src/api/vaults';
import { work } from '../../src/api/work';
import { useLoopback } from './loopback';

const service = useLoopback();
const KEY = 'sk_test_debug_api_key_77';

function client(debugApi: boolean) {
  const lines: string[] = [];
  const c = new ApiClient({
    baseUrl: service.url,
    credential: KEY,
    apiVersion: '2026-09-01-beta',
    userAgent: 'svc/test',
    maxRetries: 0,
    debug: (l) => lines.push(l),
    debugApi,
  });
  return { c, lines };
}

describe('the API debug log', () => {
  it('shows request and response headers and bodies, with the key and a credential value masked', async () => {
    const value = 'ghp_value_sent_in_this_run';
    service.handle = (_req, res) =>
      res
        .writeHead(201, { 'content-type': 'application/json', 'svc-request-id': 'req_dbg' })
        .end(JSON.stringify({ id: 'cred_1', name: 'gh', type: 'static_bearer' }));
    const { c, lines } = client(true);
    await vaults.credentials.create(c, 'vault_1', { name: 'gh', type: 'static_bearer', value }, 'idem-1');
    const log = lines.join('\n');
    expect(service.seen.at(-1)?.body).toContain(value);
    expect(log).not.toContain(KEY);
    expect(log).not.toContain(value);
    expect(lines).toContain('debug: > authorization: Bearer ***');
    expect(lines).toContain('debug: > svc-api-version: 2026-09-01-beta');
    expect(lines).toContain('debug: > idempotency-key: idem-1');
    expect(lines).toContain('debug: > body {"name":"gh","type":"static_bearer","value":"***"}');
    expect(lines).toContain('debug: < svc-request-id: req_dbg');
    expect(lines).toContain('debug: < body {"id":"cred_1","name":"gh","type":"static_bearer"}');
  });

  it("R-WORK-11 masks a work row's secret in the response body, and the secret stays masked in later lines", async () => {
    const secret = Buffer.from(JSON.stringify({ sessions_token: 'sess_tok_abcdef123' })).toString('base64url');
    service.handle = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url.includes('/poll') ? JSON.stringify({ items: [{ id: 'work_1', generation: 1, status: 'queued', secret }] }) : `{"echo":"${secret}"}`);
    };
    const { c, lines } = client(true);
    const polled = await work.poll(c, 'env_1', 'w1', 0);
    expect(polled.items[0].secret).toBe(secret);
    await c.json({ method: 'GET', path: '/v1/echo' });
    const log = lines.join('\n');
    expect(log).toContain('"secret":"***"');
    expect(log).toContain('{"echo":"***"}');
    expect(log).not.toContain(secret);
  });

  it('plain --debug stays one line per request and response, without headers or bodies', async () => {
    service.handle = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"agent_1"}');
    const { c, lines } = client(false);
    await c.json({ method: 'GET', path: '/v1/agents/agent_1' });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^debug: > GET http:\/\/127\.0\.0\.1:\d+\/v1\/agents\/agent_1 attempt=1$/);
    expect(lines[1]).toMatch(/^debug: < 200 GET \/v1\/agents\/agent_1 \d+ms request_id=-$/);
  });
});
