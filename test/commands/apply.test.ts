// Rules proved here: R-CONF-22, R-TRIG-2, R-TRIG-3
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffValue, maskWriteOnly, plan } from '../../src/apply/diff';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const log: string[] = [];
const t = useEmulator({ log: (l) => log.push(l) });
const env = () => emuEnv(t.emu);

/** Requests the emulator answered while `fn` ran, as `METHOD /path`. */
async function recorded<T>(fn: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
  const from = log.length;
  const result = await fn();
  return { result, requests: log.slice(from).map((l) => l.split(' ').slice(0, 2).join(' ')) };
}
const writes = (requests: string[]) => requests.filter((r) => !r.startsWith('GET '));

function file(name: string, text: string): { dir: string; path: string } {
  const dir = tempConfigDir();
  writeFileSync(join(dir, name), text);
  return { dir, path: name };
}

async function apply(group: string, f: { dir: string; path: string }, extra: string[] = [], opts: { stdoutTTY?: boolean } = {}) {
  return svc([group, 'apply', f.path, ...extra], { env: { ...env(), NO_COLOR: '1' }, cwd: f.dir, stdoutTTY: opts.stdoutTTY, columns: 200 });
}

describe('svc <group> apply', () => {
  it('creates an absent environment with an Idempotency-Key and prints {action, id, diff} as JSON', async () => {
    const f = file('env.yaml', 'name: applied-env\ndescription: first\nconfig:\n  type: cloud\n  proxy:\n    mode: route_all\n');
    const { result: r, requests } = await recorded(() => apply('environments', f, ['--idempotency-key', 'apply-key-1']));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ action: 'created', name: 'applied-env', dry_run: false });
    expect(out.diff).toContainEqual({ op: 'add', path: 'description', new: 'first' });
    expect(writes(requests)).toEqual(['POST /v1/environments']);
    const held = (await call(t.emu, 'GET', `/v1/environments/${out.id}`)).body;
    expect(held).toMatchObject({ name: 'applied-env', description: 'first', config: { type: 'cloud', proxy: { mode: 'route_all', hosts: [] } } });
    // The key was sent: replaying it with the same body answers the stored object.
    const replay = await call(t.emu, 'POST', '/v1/environments', {
      body: { name: 'applied-env', description: 'first', config: { type: 'cloud', proxy: { mode: 'route_all' } } },
      headers: { 'idempotency-key': 'apply-key-1' },
    });
    expect(replay.body.id).toBe(out.id);
  });

  it('applying the same file again is "unchanged" and sends no write (a server-filled empty hosts list is no difference)', async () => {
    const f = file('env.yaml', 'name: steady-env\nconfig:\n  type: cloud\n  proxy:\n    mode: route_all\n');
    expect((await apply('environments', f)).code).toBe(0);
    const { result: r, requests } = await recorded(() => apply('environments', f, [], { stdoutTTY: true }));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^environment \S+ unchanged\n$/);
    expect(requests.length).toBeGreaterThan(0);
    expect(writes(requests)).toEqual([]);
  });

  it('PATCHes only the member that differs and prints a readable diff on a TTY', async () => {
    const f = file('env.yaml', 'name: drift-env\ndescription: old\nconfig:\n  type: cloud\n  proxy:\n    mode: limited\n    hosts: [a.example]\n');
    const id = JSON.parse((await apply('environments', f, ['-o', 'json'])).stdout).id;
    // Changed out of band and absent from the file: apply must leave it alone.
    await call(t.emu, 'PATCH', `/v1/environments/${id}`, { body: { metadata: { team: 'infra' } } });
    writeFileSync(
      join(f.dir, f.path),
      'name: drift-env\ndescription: new\nconfig:\n  type: cloud\n  proxy:\n    mode: limited\n    hosts: [a.example, b.example]\n',
    );
    const { result: r, requests } = await recorded(() => apply('environments', f, [], { stdoutTTY: true }));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `~ description: "old" → "new"\n~ config.proxy.hosts: ["a.example"] → ["a.example","b.example"]\nenvironment ${id} updated (2 changes)\n`,
    );
    expect(writes(requests)).toEqual([`PATCH /v1/environments/${id}`]);
    const held = (await call(t.emu, 'GET', `/v1/environments/${id}`)).body;
    expect(held).toMatchObject({ description: 'new', metadata: { team: 'infra' }, config: { proxy: { hosts: ['a.example', 'b.example'] } } });
  });

  it('the PATCH body holds only the differing members, each whole', () => {
    const live = { id: 'x', name: 'n', description: 'same', config: { type: 'cloud', proxy: { mode: 'limited', hosts: ['a'] } }, metadata: { k: 'v' } };
    const { patch, diff } = plan({ name: 'n', description: 'same', config: { type: 'cloud', proxy: { mode: 'route_all', hosts: ['a'] } } }, live, []);
    expect(patch).toEqual({ config: { type: 'cloud', proxy: { mode: 'route_all', hosts: ['a'] } } });
    expect(diff).toEqual([{ op: 'change', path: 'config.proxy.mode', old: 'limited', new: 'route_all' }]);
    expect(diffValue('metadata', { a: '1' }, { a: '1', b: '2' })).toEqual([{ op: 'remove', path: 'metadata.b', old: '2' }]);
    expect(diffValue('tools', [{ name: 'x' }], [])).toEqual([{ op: 'change', path: 'tools', old: [], new: [{ name: 'x' }] }]);
  });

  it('--dry-run prints the difference and sends no write, for a create and for an update', async () => {
    const f = file('env.json', JSON.stringify({ name: 'dry-env', description: 'v1' }));
    const { result: c, requests: cr } = await recorded(() => apply('environments', f, ['--dry-run']));
    expect(JSON.parse(c.stdout)).toMatchObject({ action: 'created', id: null, dry_run: true });
    expect(writes(cr)).toEqual([]);
    expect((await call(t.emu, 'GET', '/v1/environments?page_size=1000')).body.items.some((e: { name: string }) => e.name === 'dry-env')).toBe(false);
    const id = JSON.parse((await apply('environments', f)).stdout).id;
    writeFileSync(join(f.dir, f.path), JSON.stringify({ name: 'dry-env', description: 'v2' }));
    const { result: u, requests: ur } = await recorded(() => apply('environments', f, ['--dry-run'], { stdoutTTY: true }));
    expect(u.stdout).toContain('~ description: "v1" → "v2"');
    expect(u.stdout).toContain('would be updated (dry run: nothing sent)');
    expect(writes(ur)).toEqual([]);
    expect((await call(t.emu, 'GET', `/v1/environments/${id}`)).body.description).toBe('v1');
  });

  it('R-CONF-22 never prints MCP header values, and does not count write-only headers as a difference', async () => {
    const secret = 'Bearer very-secret-header-value';
    const agent = (system: string) =>
      JSON.stringify({
        name: 'mcp-agent',
        model: 'm-1',
        system,
        mcp_servers: [{ type: 'url', name: 'gh', url: 'https://mcp.example', headers: { Authorization: secret } }],
      });
    const f = file('agent.json', agent('one'));
    const created = await apply('agents', f, [], { stdoutTTY: true });
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('"Authorization":"***"');
    const unchanged = await apply('agents', f, [], { stdoutTTY: true });
    expect(unchanged.stdout).toMatch(/unchanged/);
    expect(unchanged.stderr).toMatch(/note: write-only members \(mcp_servers\.\*\.headers\)/);
    writeFileSync(join(f.dir, f.path), agent('two'));
    const updated = await apply('agents', f, ['-o', 'json', '--debug']);
    expect(JSON.parse(updated.stdout)).toMatchObject({ action: 'updated', diff: [{ op: 'change', path: 'system', old: 'one', new: 'two' }] });
    for (const r of [created, unchanged, updated]) expect(r.stdout + r.stderr).not.toContain('very-secret');
  });

  it('R-TRIG-2 R-TRIG-3 a trigger file changing the agent of a reuse_session trigger is refused before any write, and applied once it switches to new_session', async () => {
    const a1 = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'a1', model: 'm' } })).body.id;
    const a2 = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'a2', model: 'm' } })).body.id;
    const trig = (agent: string, mode: string) =>
      `name: reuse-trigger\nagent_id: ${agent}\nsession_mode: ${mode}\ninitial_events:\n  - type: user.message\n    data:\n      content: [{type: text, text: hello}]\n`;
    const f = file('trigger.yaml', trig(a1, 'reuse_session'));
    const id = JSON.parse((await apply('triggers', f)).stdout).id;
    writeFileSync(join(f.dir, f.path), trig(a2, 'reuse_session'));
    const { result: refused, requests } = await recorded(() => apply('triggers', f));
    expect(refused.code).toBe(7);
    expect(refused.stderr).toMatch(/^error: trigger \S+ uses reuse_session, so agent_id cannot change/);
    expect(writes(requests)).toEqual([]);
    writeFileSync(join(f.dir, f.path), trig(a2, 'new_session'));
    const { result: ok, requests: okr } = await recorded(() => apply('triggers', f));
    expect(ok.code).toBe(0);
    expect(writes(okr)).toEqual([`PATCH /v1/triggers/${id}`, `PATCH /v1/triggers/${id}`]);
    expect((await call(t.emu, 'GET', `/v1/triggers/${id}`)).body).toMatchObject({ agent_id: a2, session_mode: 'new_session' });
  });

  it('two active resources with the name are ambiguous: exit 7, no write', async () => {
    await call(t.emu, 'POST', '/v1/environments', { body: { name: 'twin' } });
    await call(t.emu, 'POST', '/v1/environments', { body: { name: 'twin' } });
    const { result: r, requests } = await recorded(() => apply('environments', file('twin.yaml', 'name: twin\ndescription: x\n')));
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/^error: 2 environments are named "twin"/);
    expect(writes(requests)).toEqual([]);
  });

  it('an archived resource of that name is left alone: a new one is created', async () => {
    const old = (await call(t.emu, 'POST', '/v1/environments', { body: { name: 'reborn' } })).body.id;
    await call(t.emu, 'POST', `/v1/environments/${old}/archive`);
    const r = JSON.parse((await apply('environments', file('e.yaml', 'name: reborn\n'))).stdout);
    expect(r.action).toBe('created');
    expect(r.id).not.toBe(old);
  });

  it.each([
    ['nameless.yaml', 'description: no name\n', /needs a "name"/],
    ['list.json', '[{"name":"x"}]', /must hold one JSON or YAML object/],
    ['bad-enum.yaml', 'name: e\nconfig:\n  type: moon\n', /config\.type must be one of cloud, self_hosted/],
  ])('refuses %s with exit 2, one error line and no request', async (name, text, message) => {
    const before = (await call(t.emu, 'GET', '/_emulator/stats')).body.requests;
    const r = await apply('environments', file(name, text));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect((await call(t.emu, 'GET', '/_emulator/stats')).body.requests).toBe(before);
  });

  it('a missing file is exit 2', async () => {
    const r = await svc(['agents', 'apply', 'no-such-file.yaml'], { env: env(), cwd: tempConfigDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot read no-such-file\.yaml: ENOENT/);
  });

  it('is the svc apply engine restricted to one kind: a trigger file may name its agent, and a document of another kind is refused', async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'named-by-trigger', model: 'm' } })).body.id;
    const f = file('trigger.yaml', 'name: by-name\nagent: named-by-trigger\nsession_mode: new_session\ninitial_events: []\n');
    const r = await apply('triggers', f);
    expect(r.code).toBe(0);
    expect((await call(t.emu, 'GET', `/v1/triggers/${JSON.parse(r.stdout).id}`)).body.agent_id).toBe(agent);
    const other = await apply('triggers', file('env.yaml', 'kind: Environment\nname: not-a-trigger\n'));
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/^error: env\.yaml holds kind Environment; `svc triggers apply` applies kind Trigger \(use `svc apply -f env\.yaml`\)/);
  });

  it('masks every value of a write-only map and keeps its keys', () => {
    expect(maskWriteOnly({ mcp_servers: [{ name: 'a', headers: { X: 'secret' } }, { name: 'b' }] }, ['mcp_servers.*.headers'])).toEqual({
      mcp_servers: [{ name: 'a', headers: { X: '***' } }, { name: 'b' }],
    });
  });
});
