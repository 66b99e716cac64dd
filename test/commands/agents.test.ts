// Rules proved here: R-ERR-12, R-ERR-15, R-REQ-3, R-REQ-2, R-REQ-9, R-PAGE-3, R-PAGE-4, R-IDEM-12, R-IDEM-14, R-AUTH-3, R-AUTH-4, R-AUTH-5, R-VERS-2
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const env = () => emuEnv(t.emu);

async function createAgent(name: string): Promise<string> {
  const r = await svc(['agents', 'create', '--name', name, '--model', 'm-1', '-o', 'id'], { env: env() });
  expect(r.code).toBe(0);
  return r.stdout.trim();
}

describe('svc agents', () => {
  it('creates an agent from a YAML file and prints it as JSON when piped', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'agent.yaml'), 'name: from-yaml\nmodel:\n  id: m-2\n  reasoning_effort: max\nsystem: Be brief.\n');
    const r = await svc(['agents', 'create', '--data', '@agent.yaml'], { env: env(), cwd: dir });
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({ name: 'from-yaml', model: { id: 'm-2', reasoning_effort: 'max' }, system: 'Be brief.', version: 1 });
    const got = await call(t.emu, 'GET', `/v1/agents/${created.id}`);
    expect(got.body.system).toBe('Be brief.');
  });

  it('merges flag values over --data', async () => {
    const r = await svc(['agents', 'create', '--data', '{"name":"base","model":"m"}', '--name', 'flag-wins'], { env: env() });
    expect(JSON.parse(r.stdout).name).toBe('flag-wins');
  });

  it('lists as a table on a TTY, as a JSON array when piped, one object per line with ndjson, IDs with -q', async () => {
    const id = await createAgent('listed');
    const coloured = await svc(['agents', 'list'], { env: env(), stdoutTTY: true, columns: 200 });
    expect(coloured.stdout).toContain('\u001b[1mID');
    const table = await svc(['agents', 'list', '--all'], { env: { ...env(), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+MODEL\s+VERSION\s+UPDATED$/);
    expect(table.stdout).toContain(id);
    const json = JSON.parse((await svc(['agents', 'list', '--all'], { env: env() })).stdout);
    expect(Array.isArray(json)).toBe(true);
    expect(json.map((a: { id: string }) => a.id)).toContain(id);
    const nd = (await svc(['agents', 'list', '--all', '-o', 'jsonl'], { env: env() })).stdout.trim().split('\n');
    expect(nd.map((l) => JSON.parse(l).id)).toContain(id);
    const ids = (await svc(['agents', 'list', '--all', '-q'], { env: env() })).stdout.trim().split('\n');
    expect(ids).toContain(id);
  });

  it('R-PAGE-4 follows next_page_token with --all and stops at --limit', async () => {
    for (let i = 0; i < 5; i++) await createAgent(`paged-${i}`);
    const all = JSON.parse((await svc(['agents', 'list', '--all', '--page-size', '2'], { env: env() })).stdout);
    const server = await call(t.emu, 'GET', '/v1/agents?page_size=1000');
    expect(all.map((a: { id: string }) => a.id)).toEqual(server.body.items.map((a: { id: string }) => a.id));
    const limited = JSON.parse((await svc(['agents', 'list', '--limit', '3', '--page-size', '2'], { env: env() })).stdout);
    expect(limited).toHaveLength(3);
  });

  it('updates with PATCH, making a new version readable with get --version and versions', async () => {
    const id = await createAgent('versioned');
    const u = await svc(['agents', 'update', id, '--system', 'v2 prompt'], { env: env() });
    expect(JSON.parse(u.stdout).version).toBe(2);
    const v1 = await svc(['agents', 'get', id, '--version', '1', '--jq', '.system'], { env: env() });
    expect(v1.stdout).toBe('\n');
    const versions = JSON.parse((await svc(['agents', 'versions', id], { env: env() })).stdout);
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
  });

  it('archives and deletes, accepting 200 and 204', async () => {
    const id = await createAgent('doomed');
    const a = await svc(['agents', 'archive', id], { env: env() });
    expect(JSON.parse(a.stdout).archived_at).toBeTruthy();
    const d = await svc(['agents', 'delete', id], { env: env() });
    expect(d.code).toBe(0);
    expect(JSON.parse(d.stdout)).toEqual({ id, deleted: true });
    expect((await call(t.emu, 'GET', `/v1/agents/${id}`)).status).toBe(404);
  });

  it('--jq filters with a real jq', async () => {
    const id = await createAgent('jq-me');
    const r = await svc(['agents', 'get', id, '--jq', '{n: .name, v: (.version + 1)}'], { env: env() });
    expect(JSON.parse(r.stdout)).toEqual({ n: 'jq-me', v: 2 });
  });

  it('R-IDEM-12 each create sends its own fresh Idempotency-Key', async () => {
    const a = await svc(['agents', 'create', '--name', 'same', '--model', 'm', '--debug'], { env: env() });
    const b = await svc(['agents', 'create', '--name', 'same', '--model', 'm', '--debug'], { env: env() });
    const key = (s: string) => /idempotency-key=(\S+)/.exec(s)?.[1];
    expect(key(a.stderr)).toBeTruthy();
    expect(key(a.stderr)).not.toBe(key(b.stderr));
    expect(JSON.parse(a.stdout).id).not.toBe(JSON.parse(b.stdout).id);
  });
});

describe('exit codes of the agents slice', () => {
  it('0 on success', async () => {
    expect((await svc(['agents', 'list'], { env: env() })).code).toBe(0);
  });

  it('2 for an unknown flag, with one line on stderr and nothing on stdout', async () => {
    const r = await svc(['agents', 'list', '--bogus'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('2 for an unknown command', async () => {
    expect((await svc(['agentz', 'list'], { env: env() })).code).toBe(2);
  });

  it('2 for a missing argument', async () => {
    expect((await svc(['agents', 'get'], { env: env() })).code).toBe(2);
  });

  it('2 for an out-of-range page size, before any request', async () => {
    const before = await requestCount(t.emu);
    const r = await svc(['agents', 'list', '--page-size', '1001'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--page-size');
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('2 for an unreadable --data file', async () => {
    const r = await svc(['agents', 'create', '--data', '@/nonexistent/agent.yaml'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot read \/nonexistent\/agent.yaml: ENOENT\n$/);
  });

  it('2 for a create missing its required fields, before any request', async () => {
    const r = await svc(['agents', 'create', '--name', 'x'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('model is required');
  });

  it('R-REQ-9 R-ERR-15 R-ERR-12 3 for an unknown member, naming param', async () => {
    const r = await svc(['agents', 'create', '--data', '{"name":"x","model":"m","colour":"red"}'], { env: env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: unknown member colour \(type=invalid_parameter_error status=400 param=body.colour request_id=req_\S+\)\n$/);
  });

  it('4 with no credential configured, before any request', async () => {
    const r = await svc(['agents', 'list'], { env: { SVC_BASE_URL: t.emu.url } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('svc auth login');
  });

  it('R-AUTH-3 4 for a rejected key', async () => {
    const r = await svc(['agents', 'list', '--api-key', 'sk_wrong'], { env: env() });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('type=authentication_error status=401');
  });

  it('R-AUTH-4 5 for a credential without the scope', async () => {
    const envKey = t.emu.credentials.issue({ kind: 'environment', environmentId: 'env_x' });
    const r = await svc(['agents', 'list'], { env: emuEnv(t.emu, { SVC_API_KEY: envKey }) });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('type=permission_denied_error status=403');
  });

  it('R-AUTH-5 R-REQ-2 R-REQ-3 6 for an unknown ID, passed whole and unparsed', async () => {
    const r = await svc(['agents', 'get', 'not/an id?'], { env: env() });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('agent not/an id? not found');
  });

  it('7 for an Idempotency-Key reused with a different body', async () => {
    const a = await svc(['agents', 'create', '--name', 'k1', '--model', 'm', '--idempotency-key', 'reused-key'], { env: env() });
    expect(a.code).toBe(0);
    const b = await svc(['agents', 'create', '--name', 'k2', '--model', 'm', '--idempotency-key', 'reused-key'], { env: env() });
    expect(b.code).toBe(7);
    expect(b.stderr).toContain('type=conflict_error status=409');
  });

  it('10 for a network failure, with no stack trace', async () => {
    const r = await svc(['agents', 'list', '--base-url', 'http://127.0.0.1:9', '--max-retries', '0'], { env: env() });
    expect(r.code).toBe(10);
    expect(r.stderr).toBe('error: cannot reach http://127.0.0.1:9: ECONNREFUSED\n');
  });

  it('an explicit -o json prints the error as the service error object', async () => {
    const r = await svc(['agents', 'get', 'missing', '-o', 'json'], { env: env() });
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error).toMatchObject({ type: 'resource_not_found_error' });
  });

  it('the piped default json keeps the plain error line', async () => {
    const r = await svc(['agents', 'get', 'missing'], { env: env() });
    expect(r.stderr).toMatch(/^error: /);
  });
});

describe('svc agents: reference checks before any request', () => {
  const t = useEmulator();
  it('R-CONF-11 mixing "latest" and an exact version of one skill exits 2 and sends nothing', async () => {
    const before = await requestCount(t.emu);
    const data = JSON.stringify({
      name: 'mix',
      model: 'm',
      skills: [
        { skill_id: 'skl_1', version: 'latest' },
        { skill_id: 'skl_1', version: '2' },
      ],
    });
    const r = await svc(['agents', 'create', '--data', data], { env: emuEnv(t.emu) });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: .*latest/);
    expect(await requestCount(t.emu)).toBe(before);
  });
});

describe('agents get in a table', () => {
  it('shows name and model first, then the rest as the service sent it; json keeps the service order', async () => {
    const id = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'first-rows', model: 'claude-x', description: 'd' } })).body.id;
    const table = await svc(['agents', 'get', id], { env: { ...emuEnv(t.emu), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
    expect(table.code).toBe(0);
    const keys = table.stdout.split('\n').map((l) => l.split(/\s+/)[0]);
    expect(keys.slice(0, 2)).toEqual(['name', 'model']);
    const sent = Object.keys((await call(t.emu, 'GET', `/v1/agents/${id}`)).body);
    expect(Object.keys(JSON.parse((await svc(['agents', 'get', id], { env: emuEnv(t.emu) })).stdout))).toEqual(sent);
  });
});
