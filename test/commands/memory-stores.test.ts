// Rules proved here: R-MEM-1, R-MEM-3, R-MEM-4, R-MEM-5, R-MEM-6, R-MEM-7
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator, requestCount } from '../helpers/emulator';

const t = useEmulator();
const env = () => emuEnv(t.emu);
const requests = (): Promise<number> => requestCount(t.emu);

let n = 0;
async function createStore(extra: string[] = []): Promise<{ id: string; name: string }> {
  const name = `store-${++n}-${Date.now()}`;
  const r = await svc(['memory-stores', 'create', '--name', name, ...extra], { env: env() });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe('svc memory-stores', () => {
  it('R-MEM-1 creates a store from flags, prints it as JSON when piped, and the server holds it', async () => {
    const s = await createStore(['--description', 'team notes']);
    expect(s).toMatchObject({ id: expect.any(String), description: 'team notes', created_at: expect.any(String), updated_at: expect.any(String) });
    const got = await call(t.emu, 'GET', `/v1/memory-stores/${s.id}`);
    expect(got.body).toMatchObject({ name: s.name, description: 'team notes' });
  });

  it('R-MEM-7 lists newest first as a table on a TTY, a JSON array when piped and IDs with -q', async () => {
    const a = await createStore();
    const b = await createStore();
    const table = await svc(['memory-stores', 'list'], { env: { ...env(), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+ARCHIVED\s+UPDATED\s+DESCRIPTION$/);
    expect(lines.findIndex((l) => l.startsWith(b.id))).toBeLessThan(lines.findIndex((l) => l.startsWith(a.id)));
    const json = JSON.parse((await svc(['memory-stores', 'list', '--all'], { env: env() })).stdout);
    const server = await call(t.emu, 'GET', '/v1/memory-stores?page_size=1000');
    expect(json.map((s: { id: string }) => s.id)).toEqual(server.body.items.map((s: { id: string }) => s.id));
    expect(json[0].id).toBe(b.id);
    const ids = (await svc(['memory-stores', 'list', '-q', '--limit', '2'], { env: env() })).stdout.trim().split('\n');
    expect(ids).toEqual([b.id, a.id]);
  });

  it('R-MEM-3 update changes only the given member', async () => {
    const s = await createStore(['--description', 'keep me']);
    const r = await svc(['memory-stores', 'update', s.id, '--name', `renamed-${s.id}`], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: `renamed-${s.id}`, description: 'keep me' });
    expect((await call(t.emu, 'GET', `/v1/memory-stores/${s.id}`)).body.description).toBe('keep me');
  });

  it('R-MEM-5 an empty update is refused with exit 2 before any request', async () => {
    const s = await createStore();
    const before = await requests();
    const r = await svc(['memory-stores', 'update', s.id], { env: env() });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe('error: nothing to update: give --data or a field flag or --metadata\n');
    expect(await requests()).toBe(before);
  });

  it('R-MEM-4 renaming to another store\u2019s name exits 7 with the conflict_error line', async () => {
    const a = await createStore();
    const b = await createStore();
    const r = await svc(['memory-stores', 'update', b.id, '--name', a.name], { env: env() });
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .+ \(type=conflict_error status=409 request_id=\S+\)\n$/);
    expect((await call(t.emu, 'GET', `/v1/memory-stores/${b.id}`)).body.name).toBe(b.name);
  });

  it('R-MEM-6 archives a store, hides it from list unless --include-archived, and refuses updates with exit 7', async () => {
    const s = await createStore();
    const a = await svc(['memory-stores', 'archive', s.id], { env: env() });
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout).archived_at).toBeTruthy();
    const listed = async (extra: string[]) => (await svc(['memory-stores', 'list', '--all', '-q', ...extra], { env: env() })).stdout.split('\n');
    expect(await listed([])).not.toContain(s.id);
    expect(await listed(['--include-archived'])).toContain(s.id);
    const u = await svc(['memory-stores', 'update', s.id, '--description', 'x'], { env: env() });
    expect(u.code).toBe(7);
    expect(u.stderr).toContain('type=failed_precondition_error status=400');
  });

  it('deletes a store: {id, deleted: true} when piped, a line on stderr in a table, 404 afterwards', async () => {
    const s = await createStore();
    const d = await svc(['memory-stores', 'delete', s.id], { env: env() });
    expect(JSON.parse(d.stdout)).toEqual({ id: s.id, deleted: true });
    expect((await call(t.emu, 'GET', `/v1/memory-stores/${s.id}`)).status).toBe(404);
    const again = await svc(['memory-stores', 'get', s.id], { env: env() });
    expect(again.code).toBe(6);
    const other = await createStore();
    const tty = await svc(['memory-stores', 'delete', other.id], { env: env(), stdoutTTY: true });
    expect(tty).toMatchObject({ code: 0, stdout: '', stderr: `deleted ${other.id}\n` });
  });

  it('2 for a create without --name or an out-of-range page size, before any request', async () => {
    const before = await requests();
    const c = await svc(['memory-stores', 'create', '--description', 'nameless'], { env: env() });
    expect(c).toMatchObject({ code: 2, stdout: '' });
    expect(c.stderr).toBe('error: memory store name is required (--name or --data)\n');
    const l = await svc(['memory-stores', 'list', '--page-size', '0'], { env: env() });
    expect(l.code).toBe(2);
    expect(l.stderr).toContain('--page-size');
    expect(await requests()).toBe(before);
  });
});
