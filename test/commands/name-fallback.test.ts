import { describe, expect, it } from 'vitest';
import { emuEnv, ndjson, svc, type SvcResult } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const run = (args: string[]): Promise<SvcResult> => svc(args, { env: emuEnv(t.emu) });

let n = 0;
/** An ID-shaped name no other test uses: the emulator's own prefix for that resource, then something it never makes. */
const idShaped = (prefix: string) => `${prefix}_Gone${++n}`;

async function create(path: string, body: Record<string, unknown>): Promise<string> {
  const r = await call(t.emu, 'POST', path, { body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}
const exists = async (path: string) => (await call(t.emu, 'GET', path)).status === 200;

describe('a name is looked up only for an argument that is not shaped like an ID of that resource', () => {
  it('agents delete agent_X --ignore-not-found, agent_X gone: the agent named agent_X is left alone and the result is unchanged', async () => {
    const name = idShaped('agent');
    const other = await create('/v1/agents', { name, model: 'scripted-1' });
    const r = await run(['agents', 'delete', name, '--ignore-not-found', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r.stdout)).toEqual([{ id: name, action: 'delete', ok: true, unchanged: true }]);
    expect(await exists(`/v1/agents/${other}`)).toBe(true);
  });

  it.each([
    ['agents', 'agent', '/v1/agents', { model: 'scripted-1' }],
    ['environments', 'env', '/v1/environments', { config: { type: 'cloud' } }],
    ['vaults', 'vault', '/v1/vaults', {}],
  ] as const)('%s get|update|archive|delete of an ID-shaped name keep the 404 (exit 6) and name the ID to give', async (group, prefix, path, body) => {
    const name = idShaped(prefix);
    const id = await create(path, { name, ...body });
    for (const verb of [['get'], ['update', '--description', 'x'], ['archive'], ['delete']]) {
      const r = await run([group, verb[0], name, ...verb.slice(1)]);
      expect(r.code, `${verb[0]}: ${r.stderr}`).toBe(6);
      expect(r.stderr).toContain(`"${name}" has the shape of`);
      expect(r.stderr).toContain(`give that ID`);
      expect(r.stderr).toContain(id);
    }
    expect((await call(t.emu, 'GET', `${path}/${id}`)).body.archived_at ?? null).toBeNull();
  });

  it('a parent given by an ID-shaped name keeps the 404 too (memories list under a memory store)', async () => {
    const name = idShaped('memstore');
    await create('/v1/memory-stores', { name });
    const r = await run(['memories', 'list', name]);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain('has the shape of memory store IDs');
  });
});

describe('results of a verb given names report the resolved ID and the name given', () => {
  it('bulk archive by names: each result is {id: the ID, name: the name given}', async () => {
    const a = await create('/v1/agents', { name: 'report-a', model: 'scripted-1' });
    const b = await create('/v1/agents', { name: 'report-b', model: 'scripted-1' });
    const r = await run(['agents', 'archive', 'report-a', b, '--yes', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r.stdout)).toEqual([
      { id: a, name: 'report-a', action: 'archive', ok: true },
      { id: b, action: 'archive', ok: true },
    ]);
  });

  it('a mixed run: the item given by name reports its ID and name, the one not found its argument', async () => {
    const e = await create('/v1/environments', { name: 'report-env', config: { type: 'cloud' } });
    const d = await run(['environments', 'delete', 'report-env', 'missing-env-name', '--yes', '-o', 'ndjson']);
    expect(d.code).toBe(6);
    const [ok, failed] = ndjson(d.stdout);
    expect(ok).toEqual({ id: e, name: 'report-env', action: 'delete', ok: true });
    expect(failed).toMatchObject({ id: 'missing-env-name', ok: false });
  });

  it('a single delete by name prints {id, name, deleted}', async () => {
    const id = await create('/v1/vaults', { name: 'single-by-name' });
    const r = await run(['vaults', 'delete', 'single-by-name', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id, name: 'single-by-name', deleted: true });
  });
});
