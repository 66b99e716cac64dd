// Issue 13: an answer that is not the operation's documented success never counts as success (docs/behaviour.md: exit 9).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svc, tempConfigDir } from '../helpers/cli';
import { useLoopback } from '../api/loopback';

const service = useLoopback();
/** Another origin: a redirect's target, which must never be asked anything. */
const elsewhere = useLoopback();

const env = () => ({ SVC_BASE_URL: service.url, SVC_API_KEY: 'sk_test_false_success' });

function answer(status: number, body?: unknown, headers: Record<string, string> = {}): void {
  service.handle = (_req, res) => {
    if (body === undefined) res.writeHead(status, headers).end();
    else res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
}

describe('answers that look like success', () => {
  it.each([204, 202, 200])('agents get answered %i with no body exits 9 and prints nothing', async (status) => {
    answer(status);
    const r = await svc(['agents', 'get', 'agent_1'], { env: env() });
    expect(r.code).toBe(9);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      new RegExp(`^error: the service answered ${status} with no body, but GET /v1/agents/agent_1 answers an object \\(status=${status}\\)\\n$`),
    );
  });

  it('a redirect is not followed: exit 9 naming the Location and the base URL to use, and the other origin is never asked', async () => {
    elsewhere.seen.length = 0;
    elsewhere.handle = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"agent_1"}');
    service.handle = (req, res) => res.writeHead(301, { location: `${elsewhere.url}${req.url}` }).end();
    const r = await svc(['agents', 'get', 'agent_1'], { env: env() });
    expect(r.code).toBe(9);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`redirecting to ${elsewhere.url}/v1/agents/agent_1`);
    expect(r.stderr).toContain(`fix the base URL (--base-url, SVC_BASE_URL or the profile's base_url), perhaps to ${elsewhere.url}`);
    expect(r.stderr).toContain('status=301');
    expect(elsewhere.seen).toEqual([]);
  });

  it('agents delete answered by an empty redirect exits 9 and invents no {"deleted":true}', async () => {
    answer(302, undefined, { location: '/elsewhere' });
    const r = await svc(['agents', 'delete', 'agent_1'], { env: env() });
    expect(r.code).toBe(9);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`redirecting to ${service.url}/elsewhere`);
  });

  it('agents delete answered 202 with no body exits 9: a delete is 204, or 200 with an object', async () => {
    answer(202);
    const r = await svc(['agents', 'delete', 'agent_1'], { env: env() });
    expect(r.code).toBe(9);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('the service answered 202 with no body, but DELETE /v1/agents/agent_1 answers 204, or 200 with an object');
  });

  it('agents delete answered 204 prints {id, deleted: true}', async () => {
    answer(204);
    const r = await svc(['agents', 'delete', 'agent_1'], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: 'agent_1', deleted: true });
  });

  it('agents delete answered 200 {id, type: "agent_deleted"} (the public API\'s shape) is a success, printed as answered', async () => {
    answer(200, { id: 'agent_1', type: 'agent_deleted' });
    const json = await svc(['agents', 'delete', 'agent_1'], { env: env() });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ id: 'agent_1', type: 'agent_deleted' });
    const table = await svc(['agents', 'delete', 'agent_1'], { env: env(), stdoutTTY: true });
    expect(table.code).toBe(0);
    expect(table.stderr).toBe('deleted agent_1\n');
  });

  it('vaults credentials delete answered 200 {id, type: "vault_credential_deleted"} is a success', async () => {
    answer(200, { id: 'cred_1', type: 'vault_credential_deleted' });
    const r = await svc(['vaults', 'credentials', 'delete', 'vault_1', 'cred_1'], { env: env() });
    expect(r.code).toBe(0);
    expect(service.seen.at(-1)).toMatchObject({ method: 'DELETE', url: '/v1/vaults/vault_1/credentials/cred_1' });
  });

  it('svc api answered by a redirect exits 9 and prints no body', async () => {
    answer(308, { moved: true }, { location: 'https://example.test/v1/agents' });
    const r = await svc(['api', 'GET', '/v1/agents'], { env: env() });
    expect(r.code).toBe(9);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('redirecting to https://example.test/v1/agents');
  });

  it('agents list answered 200 without items exits 9', async () => {
    answer(200, {});
    const r = await svc(['agents', 'list'], { env: env() });
    expect(r.code).toBe(9);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('without items');
  });
});

describe('auth login stores a key only after a real success', () => {
  function login(dir: string) {
    return svc(['auth', 'login', '--with-token'], { env: { SVC_CONFIG_DIR: dir, SVC_BASE_URL: service.url }, stdin: 'sk_live_new_key\n' });
  }
  const stored = (dir: string) => (existsSync(join(dir, 'config.json')) ? readFileSync(join(dir, 'config.json'), 'utf8') : '');

  it('against a redirect: exit 9 and nothing stored', async () => {
    answer(307, undefined, { location: 'https://example.test/v1/agents?page_size=1' });
    const dir = tempConfigDir();
    const r = await login(dir);
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('redirecting to https://example.test/v1/agents?page_size=1');
    expect(r.stderr).toContain('perhaps to https://example.test');
    expect(stored(dir)).not.toContain('sk_live_new_key');
  });

  it.each([
    ['an empty 204', 204, undefined],
    ['a 200 that is not a page', 200, { ok: true }],
  ])('against %s: exit 9 and nothing stored', async (_what, status, body) => {
    answer(status, body);
    const dir = tempConfigDir();
    const r = await login(dir);
    expect(r.code).toBe(9);
    expect(stored(dir)).not.toContain('sk_live_new_key');
  });

  it('against a real page: stored', async () => {
    answer(200, { items: [], next_page_token: null });
    const dir = tempConfigDir();
    const r = await login(dir);
    expect(r.code).toBe(0);
    expect(stored(dir)).toContain('sk_live_new_key');
  });
});
