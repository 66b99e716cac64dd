// Rules proved here: R-MEM-1..23, R-LIMIT-1, R-LIMIT-2, R-REQ-16
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { writeMemoryFromSession } from '../../src/emulator/resources/memory';
import { MiB } from '../../src/wire/limits';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

let n = 0;
const newStore = async (extra: Record<string, unknown> = {}) =>
  (await call(t.emu, 'POST', '/v1/memory-stores', { body: { name: `store-${++n}`, ...extra } })).body;
const memPath = (storeId: string, rest = '') => `/v1/memory-stores/${storeId}/memories${rest}`;

/** A store with one memory changed twice: versions v1 (created), v2 (modified). */
async function history() {
  const store = await newStore();
  const m = (await call(t.emu, 'POST', memPath(store.id), { body: { path: '/notes.md', content: 'one' } })).body;
  await call(t.emu, 'PATCH', memPath(store.id, `/${m.id}`), { body: { content: 'two' } });
  const versions = (await call(t.emu, 'GET', memPath(store.id, `/${m.id}/versions`))).body.items;
  return { store, m, versions, base: memPath(store.id, `/${m.id}/versions`) };
}

describe('emulator: memory stores', () => {
  it('R-MEM-1 a store has id, name, description, created_at and updated_at', async () => {
    const s = await newStore({ description: 'team notes' });
    expect(s).toMatchObject({ name: expect.any(String), description: 'team notes', created_at: expect.any(String), updated_at: expect.any(String) });
  });

  it('R-MEM-2 a duplicate name is 409 conflict_error on create, archived stores included', async () => {
    const s = await newStore();
    await call(t.emu, 'POST', `/v1/memory-stores/${s.id}/archive`);
    const r = await call(t.emu, 'POST', '/v1/memory-stores', { body: { name: s.name } });
    expect(r.status).toBe(409);
    expect(r.body.error.type).toBe('conflict_error');
  });

  it('R-MEM-3 PATCH changes the sent members and keeps the others', async () => {
    const s = await newStore({ description: 'keep me' });
    const r = await call(t.emu, 'PATCH', `/v1/memory-stores/${s.id}`, { body: { name: `renamed-${s.id}` } });
    expect(r.body).toMatchObject({ name: `renamed-${s.id}`, description: 'keep me' });
  });

  it('R-MEM-4 renaming to another store\u2019s name is 409 conflict_error, archived stores included', async () => {
    const a = await newStore();
    const b = await newStore();
    await call(t.emu, 'POST', `/v1/memory-stores/${a.id}/archive`);
    const r = await call(t.emu, 'PATCH', `/v1/memory-stores/${b.id}`, { body: { name: a.name } });
    expect(r.body.error.type).toBe('conflict_error');
  });

  it('R-MEM-5 an empty partial update is 400 invalid_request_error', async () => {
    const s = await newStore();
    const r = await call(t.emu, 'PATCH', `/v1/memory-stores/${s.id}`, { body: {} });
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('invalid_request_error');
  });

  it('R-MEM-6 updating an archived store is 400 failed_precondition_error', async () => {
    const s = await newStore();
    await call(t.emu, 'POST', `/v1/memory-stores/${s.id}/archive`);
    const r = await call(t.emu, 'PATCH', `/v1/memory-stores/${s.id}`, { body: { description: 'x' } });
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('failed_precondition_error');
  });

  it('R-MEM-7 stores list newest first', async () => {
    const a = await newStore();
    const b = await newStore();
    const ids = (await call(t.emu, 'GET', '/v1/memory-stores?page_size=1000')).body.items.map((s: any) => s.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(ids).toEqual([...ids].sort().reverse());
  });
});

describe('emulator: memories and versions', () => {
  it('R-MEM-8 memories list newest first', async () => {
    const s = await newStore();
    for (const p of ['/a', '/b', '/c']) await call(t.emu, 'POST', memPath(s.id), { body: { path: p, content: p } });
    const r = await call(t.emu, 'GET', memPath(s.id));
    expect(r.body.items.map((m: any) => m.path)).toEqual(['/c', '/b', '/a']);
  });

  it('R-MEM-9 R-MEM-10 R-MEM-11 R-MEM-12 every change is a version with its operation, path and stable memory_id', async () => {
    const s = await newStore();
    const m = (await call(t.emu, 'POST', memPath(s.id), { body: { path: '/a.md', content_base64: Buffer.from('hi').toString('base64') } })).body;
    await call(t.emu, 'PATCH', memPath(s.id, `/${m.id}`), { body: { content: 'changed' } });
    await call(t.emu, 'PATCH', memPath(s.id, `/${m.id}`), { body: { path: '/b.md' } });
    expect((await call(t.emu, 'DELETE', memPath(s.id, `/${m.id}`))).status).toBe(204);
    expect((await call(t.emu, 'GET', memPath(s.id, `/${m.id}`))).status).toBe(404);
    const versions = (await call(t.emu, 'GET', memPath(s.id, `/${m.id}/versions`))).body.items;
    expect(versions.map((v: any) => [v.operation, v.path, v.source])).toEqual([
      ['deleted', '/b.md', 'api'],
      ['renamed', '/b.md', 'api'],
      ['modified', '/a.md', 'api'],
      ['created', '/a.md', 'api'],
    ]);
    for (const v of versions) expect(v).toMatchObject({ id: expect.any(String), memory_store_id: s.id, memory_id: m.id, created_at: expect.any(String) });
    expect(versions.map((v: any) => v.sequence)).toEqual([4, 3, 2, 1]);
  });

  it('R-MEM-13 R-MEM-14 R-MEM-15 bodies, hashes and sizes are present on changes and absent on deletion', async () => {
    const s = await newStore();
    const m = (await call(t.emu, 'POST', memPath(s.id), { body: { path: '/x', content: 'body' } })).body;
    await call(t.emu, 'DELETE', memPath(s.id, `/${m.id}`));
    const [deleted, created] = (await call(t.emu, 'GET', memPath(s.id, `/${m.id}/versions`))).body.items;
    expect(created).toMatchObject({
      content_base64: Buffer.from('body').toString('base64'),
      content_sha256: createHash('sha256').update('body').digest('hex'),
      content_size_bytes: 4,
    });
    expect('redacted_at' in created).toBe(false);
    for (const k of ['content_base64', 'content_sha256', 'content_size_bytes']) expect(k in deleted).toBe(false);
  });

  it('R-MEM-16 session_id is present only on versions from a session', async () => {
    const s = await newStore();
    writeMemoryFromSession(t.emu, s.id, '/from-session', Buffer.from('s'), 'sess_123');
    const m = (await call(t.emu, 'GET', memPath(s.id))).body.items[0];
    await call(t.emu, 'PATCH', memPath(s.id, `/${m.id}`), { body: { content: 'api' } });
    const [api, session] = (await call(t.emu, 'GET', memPath(s.id, `/${m.id}/versions`))).body.items;
    expect(session).toMatchObject({ source: 'session', session_id: 'sess_123' });
    expect(api.source).toBe('api');
    expect('session_id' in api).toBe(false);
  });

  it('R-MEM-9 R-MEM-17 an out-of-order write is recorded without sequence and never becomes current', async () => {
    const { store, m, versions, base } = await history();
    const stale = await call(t.emu, 'PATCH', memPath(store.id, `/${m.id}`), { body: { content: 'late', base_version_id: versions[1].id } });
    expect(stale.status).toBe(200);
    expect(stale.body.content).toBe('two');
    const after = (await call(t.emu, 'GET', base)).body.items;
    expect(after).toHaveLength(3);
    expect(after[0]).toMatchObject({ operation: 'modified', content_base64: Buffer.from('late').toString('base64') });
    expect('sequence' in after[0]).toBe(false);
    expect((await call(t.emu, 'GET', memPath(store.id, `/${m.id}`))).body.current_version_id).toBe(versions[0].id);
  });

  it('R-MEM-18 R-MEM-19 R-MEM-20 redacting an old version deletes its body, keeps metadata and sets redacted_at', async () => {
    const { versions, base } = await history();
    const r = await call(t.emu, 'POST', `${base}/${versions[1].id}/redact`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: versions[1].id,
      operation: 'created',
      path: '/notes.md',
      redacted_at: expect.any(String),
      content_sha256: versions[1].content_sha256,
    });
    expect('content_base64' in r.body).toBe(false);
    expect('content_base64' in (await call(t.emu, 'GET', `${base}/${versions[1].id}`)).body).toBe(false);
  });

  it('R-MEM-21 redaction leaves other versions and the current file unchanged', async () => {
    const { store, m, versions, base } = await history();
    await call(t.emu, 'POST', `${base}/${versions[1].id}/redact`);
    expect((await call(t.emu, 'GET', `${base}/${versions[0].id}`)).body).toEqual(versions[0]);
    expect((await call(t.emu, 'GET', memPath(store.id, `/${m.id}`))).body.content).toBe('two');
  });

  it('R-MEM-22 repeating a redaction is a no-op', async () => {
    const { versions, base } = await history();
    const first = await call(t.emu, 'POST', `${base}/${versions[1].id}/redact`);
    const second = await call(t.emu, 'POST', `${base}/${versions[1].id}/redact`);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  it('R-MEM-23 redacting the current version is 400 failed_precondition_error', async () => {
    const { versions, base } = await history();
    const r = await call(t.emu, 'POST', `${base}/${versions[0].id}/redact`);
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('failed_precondition_error');
  });

  it('R-LIMIT-1 R-LIMIT-2 a memory write may exceed 4 MiB', async () => {
    const s = await newStore();
    const r = await call(t.emu, 'POST', memPath(s.id), { body: { path: '/big', content: 'a'.repeat(5 * MiB) } });
    expect(r.status).toBe(201);
    expect(r.body.content_size_bytes).toBe(5 * MiB);
  });

  it('R-LIMIT-2 R-REQ-16 a memory write over 28 MiB is 400 invalid_request_error', async () => {
    const s = await newStore();
    const r = await call(t.emu, 'POST', memPath(s.id), { body: { path: '/huge', content: 'a'.repeat(28 * MiB) } });
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('invalid_request_error');
  });

  it('R-MEM-12 two live memories cannot share a path: 409 conflict_error', async () => {
    const s = await newStore();
    await call(t.emu, 'POST', memPath(s.id), { body: { path: '/same', content: '1' } });
    expect((await call(t.emu, 'POST', memPath(s.id), { body: { path: '/same', content: '2' } })).body.error.type).toBe('conflict_error');
  });
});
