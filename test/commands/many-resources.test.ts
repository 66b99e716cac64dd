import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const env = () => emuEnv(t.emu);

async function agent(name: string): Promise<string> {
  return (await call(t.emu, 'POST', '/v1/agents', { body: { name, model: 'scripted-1' } })).body.id;
}
const archived = async (id: string) => Boolean((await call(t.emu, 'GET', `/v1/agents/${id}`)).body.archived_at);

describe('names where IDs are expected, and archive/delete of many for every resource', () => {
  it('get and update take a name where the resource has names; the ID is tried first', async () => {
    const id = await agent('named-one');
    const got = await svc(['agents', 'get', 'named-one', '-o', 'json'], { env: env() });
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout).id).toBe(id);
    const up = await svc(['agents', 'update', 'named-one', '--description', 'by name', '-o', 'json'], { env: env() });
    expect(up.code).toBe(0);
    expect((await call(t.emu, 'GET', `/v1/agents/${id}`)).body.description).toBe('by name');
  });

  it('a name two agents share is exit 2 listing both, with nothing written', async () => {
    const a = await agent('twin');
    const b = await agent('twin');
    const r = await svc(['agents', 'archive', 'twin'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(a);
    expect(r.stderr).toContain(b);
    expect(await archived(a)).toBe(false);
    expect(await archived(b)).toBe(false);
  });

  it('archives several IDs with --yes: one result per item, a summary, and a re-run converges as unchanged', async () => {
    const ids = [await agent('bulk-a'), await agent('bulk-b'), await agent('bulk-c')];
    const r = await svc(['agents', 'archive', ...ids, '--yes', '-o', 'json'], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((x: { id: string; ok: boolean }) => [x.id, x.ok])).toEqual(ids.map((id) => [id, true]));
    expect(r.stderr).toContain('archived 3');
    for (const id of ids) expect(await archived(id)).toBe(true);
    const again = await svc(['agents', 'archive', '-', '--yes', '-o', 'ndjson'], { env: env(), stdin: ids.join('\n') + '\n' });
    expect(again.code).toBe(0);
    expect(
      again.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).unchanged),
    ).toEqual([true, true, true]);
  });

  it('more than one item off a terminal without --yes is exit 2 with nothing sent; --dry-run sends no write', async () => {
    const ids = [await agent('keep-a'), await agent('keep-b')];
    const before = await requestCount(t.emu);
    const r = await svc(['agents', 'archive', ...ids], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
    expect(await requestCount(t.emu)).toBe(before);
    const dry = await svc(['agents', 'delete', ...ids, '--dry-run', '-o', 'json'], { env: env() });
    expect(dry.code).toBe(0);
    for (const id of ids) expect((await call(t.emu, 'GET', `/v1/agents/${id}`)).status).toBe(200);
  });

  it('delete of many: a missing one fails the run with its exit code unless --ignore-not-found', async () => {
    const id = await agent('to-delete');
    const r = await svc(['agents', 'delete', id, 'agent_missing', '--yes', '-o', 'json'], { env: env() });
    expect(r.code).toBe(6);
    expect(JSON.parse(r.stdout).map((x: { ok: boolean }) => x.ok)).toEqual([true, false]);
    const ok = await svc(['agents', 'delete', id, 'agent_missing', '--yes', '--ignore-not-found', '-o', 'json'], { env: env() });
    expect(ok.code).toBe(0);
  });
});

describe('svc run --agent NAME', () => {
  it('runs the agent named, the ID being tried first', async () => {
    const id = await agent('run-by-name');
    const r = await svc(['run', '--agent', 'run-by-name', '--message', '/echo named'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('named\n');
    const sid = /session (sesn_\S+)/.exec(r.stderr)?.[1];
    expect((await call(t.emu, 'GET', `/v1/sessions/${sid}`)).body.agent?.id ?? (await call(t.emu, 'GET', `/v1/sessions/${sid}`)).body.agent_id).toBe(id);
  });
});
