// Issue 45 item 11: metadata PATCH is a patch, and an agent's PATCH carries the version read (docs/decisions/metadata.md).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { interposer } from '../helpers/interposer';

const t = useEmulator();
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closing.splice(0)) await c();
});
const newAgent = async (name: string, metadata: Record<string, string> = {}) =>
  (await call(t.emu, 'POST', '/v1/agents', { body: { name, model: 'scripted-1', metadata } })).body as { id: string; version: number };

/** A proxy that records each PATCH body svc sends. */
async function spy(): Promise<{ url: string; patches: Record<string, unknown>[] }> {
  const patches: Record<string, unknown>[] = [];
  const p = await interposer(t.emu.url, {
    hang: (method, _path, body) => {
      if (method === 'PATCH') patches.push(JSON.parse(body));
      return false;
    },
  });
  closing.push(p.close);
  return { url: p.url, patches };
}

describe('metadata PATCH is a patch (issue 45 item 11)', () => {
  it('10 concurrent agents update A --metadata jobN=done keep all 10 keys and the key already there', async () => {
    const a = await newAgent('concurrent', { owner: 'ops' });
    const runs = await Promise.all(
      Array.from({ length: 10 }, (_, n) => svc(['agents', 'update', a.id, '--metadata', `job${n}=done`, '-o', 'json'], { env: emuEnv(t.emu) })),
    );
    for (const r of runs) expect([r.code, r.stderr]).toEqual([0, '']);
    const held = (await call(t.emu, 'GET', `/v1/agents/${a.id}`)).body.metadata;
    expect(held).toEqual({ owner: 'ops', ...Object.fromEntries(Array.from({ length: 10 }, (_, n) => [`job${n}`, 'done'])) });
  });

  it('svc sends only the changed keys, KEY- as null, and reads nothing first', async () => {
    const a = await newAgent('only-changed', { keep: 'yes', drop: 'x' });
    const s = await spy();
    const r = await svc(['agents', 'update', a.id, '--metadata', 'add=1', '--metadata', 'drop-', '-o', 'json'], { env: emuEnv({ ...t.emu, url: s.url }) });
    expect(r.code).toBe(0);
    expect(s.patches).toEqual([{ metadata: { add: '1', drop: null } }]);
    expect(JSON.parse(r.stdout).metadata).toEqual({ keep: 'yes', add: '1' });
  });

  it('the emulator merges: a string upserts, null deletes, others are kept, metadata: null clears (sessions, vaults … too)', async () => {
    const a = await newAgent('merge', { a: '1', b: '2' });
    let r = await call(t.emu, 'PATCH', `/v1/agents/${a.id}`, { body: { metadata: { b: null, c: '3' } } });
    expect(r.body.metadata).toEqual({ a: '1', c: '3' });
    r = await call(t.emu, 'PATCH', `/v1/agents/${a.id}`, { body: { metadata: null } });
    expect(r.body.metadata).toEqual({});
    const v = (await call(t.emu, 'POST', '/v1/vaults', { body: { name: 'mv', metadata: { x: '1', y: '2' } } })).body;
    expect((await call(t.emu, 'PATCH', `/v1/vaults/${v.id}`, { body: { metadata: { y: null, z: '3' } } })).body.metadata).toEqual({ x: '1', z: '3' });
    const s = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: a.id, metadata: { x: '1' } } })).body;
    expect((await call(t.emu, 'PATCH', `/v1/sessions/${s.id}`, { body: { metadata: { y: '2' } } })).body.metadata).toEqual({ x: '1', y: '2' });
    // A null value is a PATCH's only: a create still takes strings alone.
    expect((await call(t.emu, 'POST', '/v1/vaults', { body: { name: 'mv2', metadata: { x: null } } })).status).toBe(400);
  });

  it("an agent's PATCH with a stale version is refused (409 conflict_error); the current one is taken", async () => {
    const a = await newAgent('versioned');
    const stale = await call(t.emu, 'PATCH', `/v1/agents/${a.id}`, { body: { version: a.version + 1, description: 'x' } });
    expect([stale.status, stale.body.error.type]).toEqual([409, 'conflict_error']);
    const ok = await call(t.emu, 'PATCH', `/v1/agents/${a.id}`, { body: { version: a.version, description: 'x' } });
    expect([ok.status, ok.body.version]).toEqual([200, a.version + 1]);
  });

  it('apply sends the version it read with an agent PATCH, and its metadata as a patch (dropped keys null)', async () => {
    const a = await newAgent('applied-agent', { stale: 'x', keep: 'k' });
    const s = await spy();
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'agent.yaml'), 'name: applied-agent\nmodel: scripted-1\ndescription: new\nmetadata:\n  keep: k\n  fresh: f\n');
    const r = await svc(['agents', 'apply', 'agent.yaml'], { env: emuEnv({ ...t.emu, url: s.url }), cwd: dir });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(s.patches).toEqual([{ description: 'new', metadata: { fresh: 'f', stale: null }, version: a.version }]);
    expect((await call(t.emu, 'GET', `/v1/agents/${a.id}`)).body.metadata).toEqual({ keep: 'k', fresh: 'f' });
  });
});
