import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir, type SvcResult } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { createSession, send, waitUntil } from '../helpers/sse';

const t = useEmulator();
const env = () => emuEnv(t.emu);
const run = (args: string[], stdin?: string): Promise<SvcResult> => svc(args, { env: env(), stdin });
const json = (r: SvcResult): any => {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

let n = 0;
/** A name no other test uses (the emulator is shared by the file). */
const unique = (what: string): string => `${what}-${++n}`;

async function create(path: string, body: Record<string, unknown>): Promise<string> {
  const r = await call(t.emu, 'POST', path, { body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

/** The same command with the parent as its name and as its ID: the same answer. */
async function sameByName(args: (parent: string) => string[], name: string, id: string): Promise<SvcResult> {
  const byName = await run(args(name));
  const byId = await run(args(id));
  expect(byName.code, byName.stderr).toBe(0);
  expect(byName.stdout).toBe(byId.stdout);
  return byName;
}

/** Exit 2 naming both parents that share the name, whatever the verb. */
function expectAmbiguous(r: SvcResult, ids: string[]): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain('is ambiguous');
  for (const id of ids) expect(r.stderr).toContain(id);
}

describe('vaults credentials take the vault by name', () => {
  async function vaultWithCredential(): Promise<{ name: string; vault: string; cred: string }> {
    const name = unique('vault');
    const vault = await create('/v1/vaults', { name });
    const cred = json(await run(['vaults', 'credentials', 'create', vault, '--name', 'gh', '--type', 'static_bearer', '--value-stdin'], 'tok')).id;
    return { name, vault, cred };
  }

  it('list and get answer by vault name what they answer by ID; by ID, get still sends one request', async () => {
    const { name, vault, cred } = await vaultWithCredential();
    expect(json(await sameByName((v) => ['vaults', 'credentials', 'list', v], name, vault)).map((c: { id: string }) => c.id)).toEqual([cred]);
    expect(json(await sameByName((v) => ['vaults', 'credentials', 'get', v, cred], name, vault)).id).toBe(cred);
    const before = await requestCount(t.emu);
    expect((await run(['vaults', 'credentials', 'get', vault, cred])).code).toBe(0);
    expect((await requestCount(t.emu)) - before).toBe(1);
  });

  it('create, update and delete act in the vault of that name', async () => {
    const { name, vault } = await vaultWithCredential();
    const made = json(await run(['vaults', 'credentials', 'create', name, '--name', 'db', '--type', 'environment_variable', '--value-stdin'], 'x'));
    expect((await call(t.emu, 'GET', `/v1/vaults/${vault}/credentials/${made.id}`)).status).toBe(200);
    expect(json(await run(['vaults', 'credentials', 'update', name, made.id, '--name', 'db2'])).name).toBe('db2');
    expect((await run(['vaults', 'credentials', 'delete', name, made.id])).code).toBe(0);
    expect((await call(t.emu, 'GET', `/v1/vaults/${vault}/credentials/${made.id}`)).status).toBe(404);
  });

  it('a create in a vault given by name, run again with its --idempotency-key, replays the one credential', async () => {
    const { name, vault } = await vaultWithCredential();
    const args = ['vaults', 'credentials', 'create', name, '--name', 'once', '--type', 'static_bearer', '--value-stdin', '--idempotency-key', 'k-once'];
    const first = json(await run(args, 'v'));
    expect(json(await run(args, 'v')).id).toBe(first.id);
    const names = (await call(t.emu, 'GET', `/v1/vaults/${vault}/credentials`)).body.items.map((c: { name: string }) => c.name);
    expect(names.filter((x: string) => x === 'once')).toHaveLength(1);
  });

  it('two vaults of the name are exit 2 listing both, and nothing is created', async () => {
    const name = unique('twin-vault');
    const ids = [await create('/v1/vaults', { name }), await create('/v1/vaults', { name })];
    expectAmbiguous(await run(['vaults', 'credentials', 'list', name]), ids);
    expectAmbiguous(await run(['vaults', 'credentials', 'create', name, '--name', 'x', '--type', 'static_bearer', '--value-stdin'], 'v'), ids);
    for (const id of ids) expect((await call(t.emu, 'GET', `/v1/vaults/${id}/credentials`)).body.items).toEqual([]);
  });

  it('a credential missing from a vault given by name (it is in another) is exit 6 naming the credential', async () => {
    const { name } = await vaultWithCredential();
    const elsewhere = (await vaultWithCredential()).cred;
    const r = await run(['vaults', 'credentials', 'get', name, elsewhere]);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(`credential ${elsewhere} not found`);
  });
});

describe('memories take the store by name', () => {
  const stores = () => t.emu.collection('memory_stores', 'memstore', 'memory store');

  async function storeWithMemory(): Promise<{ name: string; store: string; memory: string }> {
    const name = unique('store');
    const store = await create('/v1/memory-stores', { name });
    const memory = json(await run(['memories', 'write', store, '/notes.md', '--text', 'one'])).id;
    return { name, store, memory };
  }

  it('list, get, cat and versions answer by store name what they answer by ID', async () => {
    const { name, store, memory } = await storeWithMemory();
    expect(json(await sameByName((s) => ['memories', 'list', s], name, store)).map((m: { id: string }) => m.id)).toEqual([memory]);
    expect(json(await sameByName((s) => ['memories', 'get', s, memory], name, store)).id).toBe(memory);
    expect((await sameByName((s) => ['memories', 'cat', s, '/notes.md'], name, store)).stdout).toBe('one');
    const versions = json(await sameByName((s) => ['memories', 'versions', s, memory], name, store));
    expect(versions).toHaveLength(1);
    expect(json(await sameByName((s) => ['memories', 'versions', s, memory, versions[0].id], name, store)).id).toBe(versions[0].id);
  });

  it('write, rename, redact and delete act in the store of that name', async () => {
    const { name, store, memory } = await storeWithMemory();
    const changed = json(await run(['memories', 'write', name, '/notes.md', '--text', 'two']));
    expect(changed.id).toBe(memory);
    const created = json(await run(['memories', 'write', name, '/new.md', '--text', 'new']));
    expect((await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories/${created.id}`)).body.path).toBe('/new.md');
    expect(json(await run(['memories', 'rename', name, created.id, '/moved.md'])).path).toBe('/moved.md');
    const [, v1] = (await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories/${memory}/versions`)).body.items;
    expect(json(await run(['memories', 'redact', name, memory, v1.id, '--yes'])).redacted_at).toBeTruthy();
    expect((await run(['memories', 'delete', name, created.id])).code).toBe(0);
    expect((await call(t.emu, 'GET', `/v1/memory-stores/${store}/memories/${created.id}`)).status).toBe(404);
  });

  it('two stores of the name are exit 2 listing both, and nothing is written', async () => {
    // The service keeps store names unique; two of one name are made in the emulator's state to prove the answer.
    const name = unique('twin-store');
    const ids = [await create('/v1/memory-stores', { name }), await create('/v1/memory-stores', { name: unique('other') })];
    stores().get(ids[1])!.name = name;
    expectAmbiguous(await run(['memories', 'list', name]), ids);
    expectAmbiguous(await run(['memories', 'write', name, '/a.md', '--text', 'a']), ids);
    for (const id of ids) expect((await call(t.emu, 'GET', `/v1/memory-stores/${id}/memories`)).body.items).toEqual([]);
  });

  it('a memory path missing from a store given by name is exit 6 naming the memory', async () => {
    const { name } = await storeWithMemory();
    const r = await run(['memories', 'cat', name, '/missing.md']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('memory /missing.md not found');
  });
});

describe('agents versions takes the agent by name', () => {
  it('lists by name what it lists by ID; an unknown name stays exit 6', async () => {
    const name = unique('agent');
    const id = await create('/v1/agents', { name, model: 'scripted-1' });
    expect((await run(['agents', 'update', id, '--system', 'v2'])).code).toBe(0);
    expect(json(await sameByName((a) => ['agents', 'versions', a], name, id))).toHaveLength(2);
    const unknown = await run(['agents', 'versions', unique('no-such-agent')]);
    expect(unknown.code).toBe(6);
  });

  it('two agents of the name are exit 2 listing both', async () => {
    const name = unique('twin-agent');
    const ids = [await create('/v1/agents', { name, model: 'scripted-1' }), await create('/v1/agents', { name, model: 'scripted-1' })];
    expectAmbiguous(await run(['agents', 'versions', name]), ids);
  });
});

describe('skills take the skill by name', () => {
  function pkg(content: Buffer): string {
    const path = join(tempConfigDir(), 'skill.zip');
    writeFileSync(path, content);
    return path;
  }
  const skill = async (name: string): Promise<string> => json(await run(['skills', 'create', pkg(randomBytes(100)), '--name', name])).id;

  it('versions, create-version and download work by skill name', async () => {
    const name = unique('skill');
    const id = await skill(name);
    const v2 = randomBytes(200);
    expect(json(await run(['skills', 'create-version', name, pkg(v2)])).version).toBe(2);
    expect(json(await sameByName((s) => ['skills', 'versions', s], name, id)).map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const out = join(tempConfigDir(), 'out.zip');
    expect((await run(['skills', 'download', name, '-O', out])).code).toBe(0);
    expect(readFileSync(out).equals(v2)).toBe(true);
  });

  it('two skills of the name are exit 2 listing both, and no version is uploaded', async () => {
    const name = unique('twin-skill');
    const ids = [await skill(name), await skill(name)];
    expectAmbiguous(await run(['skills', 'versions', name]), ids);
    expectAmbiguous(await run(['skills', 'create-version', name, pkg(randomBytes(10))]), ids);
    for (const id of ids) expect((await call(t.emu, 'GET', `/v1/skills/${id}/versions`)).body.items).toHaveLength(1);
  });

  it('a missing version of a skill given by name is exit 6 naming the version', async () => {
    const name = unique('skill');
    await skill(name);
    const r = await run(['skills', 'download', name, '--version', '99', '-O', join(tempConfigDir(), 'x.zip')]);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('has no version 99');
  });
});

describe('triggers runs, run, pause and resume take the trigger by name', () => {
  async function trigger(name: string): Promise<string> {
    const agent = await create('/v1/agents', { name: unique('trigger-agent'), model: 'scripted-1' });
    return json(await run(['triggers', 'create', '--name', name, '--agent', agent, '--session-mode', 'new_session', '--message', 'hi'])).id;
  }

  it('run, pause, resume and runs act on the trigger of that name', async () => {
    const name = unique('trigger');
    const id = await trigger(name);
    const started = json(await run(['triggers', 'run', name]));
    expect(started.trigger_id).toBe(id);
    expect(json(await sameByName((x) => ['triggers', 'runs', x], name, id)).map((r: { id: string }) => r.id)).toEqual([started.id]);
    expect(json(await run(['triggers', 'pause', name])).status).toBe('paused');
    expect(json(await run(['triggers', 'resume', name])).status).toBe('active');
  });

  it('two triggers of the name are exit 2 listing both, and none runs', async () => {
    const name = unique('twin-trigger');
    const ids = [await trigger(name), await trigger(name)];
    expectAmbiguous(await run(['triggers', 'runs', name]), ids);
    expectAmbiguous(await run(['triggers', 'run', name]), ids);
    for (const id of ids) expect((await call(t.emu, 'GET', `/v1/triggers/${id}/runs`)).body.items).toEqual([]);
  });
});

describe('work list and get take the environment by name (with the API key)', () => {
  it('list and get answer by environment name what they answer by ID; a missing row stays exit 6 naming it', async () => {
    const name = unique('workers');
    const envId = await create('/v1/environments', { name, config: { type: 'self_hosted' } });
    const s = await createSession(t.emu, { environment_id: envId });
    await send(t.emu, s.id, '/tool bash {"cmd":"ls"}');
    const row = await waitUntil(async () => (await call(t.emu, 'GET', `/v1/environments/${envId}/work`)).body.items[0], 'a work row');
    // The row's lease may move between two reads: compare IDs, not whole rows.
    expect(json(await run(['work', 'list', name])).map((r: { id: string }) => r.id)).toEqual([row.id]);
    expect(json(await run(['work', 'list', '--environment', name])).map((r: { id: string }) => r.id)).toEqual([row.id]);
    expect(json(await run(['work', 'get', name, row.id])).id).toBe(row.id);
    const missing = await run(['work', 'get', name, 'work_missing']);
    expect(missing.code).toBe(6);
    expect(missing.stderr).toContain('work row work_missing not found');
  });

  it('two environments of the name are exit 2 listing both', async () => {
    const name = unique('twin-env');
    const ids = [await create('/v1/environments', { name }), await create('/v1/environments', { name })];
    expectAmbiguous(await run(['work', 'list', name]), ids);
    expectAmbiguous(await run(['work', 'get', name, 'work_x']), ids);
  });
});
