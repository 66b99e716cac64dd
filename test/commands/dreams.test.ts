import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator, requestCount } from '../helpers/emulator';

const t = useEmulator();
const env = (extra: Record<string, string> = {}) => emuEnv(t.emu, extra);
const requests = (): Promise<number> => requestCount(t.emu);

let n = 0;
const newStore = async (): Promise<string> => (await call(t.emu, 'POST', '/v1/memory-stores', { body: { name: `dream-store-${++n}-${Date.now()}` } })).body.id;

async function createDream(store: string, extra: string[] = []): Promise<Record<string, any>> {
  const r = await svc(['dreams', 'create', '--memory-store', store, ...extra], { env: env() });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe('svc dreams', () => {
  it('creates a dream for a store with instructions; the server holds it', async () => {
    const store = await newStore();
    const d = await createDream(store, ['--instructions', 'Merge duplicate notes']);
    expect(d).toMatchObject({ id: expect.any(String), memory_store_id: store, instructions: 'Merge duplicate notes', status: 'running' });
    const held = await call(t.emu, 'GET', `/v1/dreams/${d.id}`);
    expect(held.body).toMatchObject({ memory_store_id: store, instructions: 'Merge duplicate notes' });
  });

  it('lists dreams, filtered by --memory-store, as a table on a TTY and IDs with -q', async () => {
    const a = await newStore();
    const b = await newStore();
    const da = await createDream(a);
    const db = await createDream(b);
    const ids = (await svc(['dreams', 'list', '--memory-store', a, '--all', '-q'], { env: env() })).stdout.trim().split('\n');
    expect(ids).toEqual([da.id]);
    const table = await svc(['dreams', 'list', '--all'], { env: env({ NO_COLOR: '1' }), stdoutTTY: true, columns: 200 });
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+MEMORY STORE\s+STATUS\s+CREATED\s+INSTRUCTIONS$/);
    expect(lines.some((l) => l.startsWith(db.id) && l.includes(b) && l.includes('running'))).toBe(true);
  });

  it('get shows one dream; --jq filters it', async () => {
    const d = await createDream(await newStore());
    const r = await svc(['dreams', 'get', d.id, '--jq', '.status'], { env: env() });
    expect(r).toMatchObject({ code: 0, stdout: 'running\n' });
  });

  it('cancel stops a running dream; cancelling again exits 7', async () => {
    const d = await createDream(await newStore());
    const c = await svc(['dreams', 'cancel', d.id], { env: env() });
    expect(c.code).toBe(0);
    expect(JSON.parse(c.stdout)).toMatchObject({ id: d.id, status: 'cancelled' });
    expect((await call(t.emu, 'GET', `/v1/dreams/${d.id}`)).body.status).toBe('cancelled');
    const again = await svc(['dreams', 'cancel', d.id], { env: env() });
    expect(again).toMatchObject({ code: 7, stdout: '' });
    expect(again.stderr).toMatch(/^error: .+ \(type=failed_precondition_error status=400 request_id=\S+\)\n$/);
  });

  it('7 for a dream of an archived store', async () => {
    const store = await newStore();
    await call(t.emu, 'POST', `/v1/memory-stores/${store}/archive`);
    const r = await svc(['dreams', 'create', '--memory-store', store], { env: env() });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('type=failed_precondition_error');
  });

  it('2 for a create without a memory store or a bad page size, before any request', async () => {
    const before = await requests();
    const c = await svc(['dreams', 'create', '--instructions', 'x'], { env: env() });
    expect(c).toMatchObject({ code: 2, stdout: '' });
    expect(c.stderr).toMatch(/^error: dream memory_store_id is required .*\n$/);
    const l = await svc(['dreams', 'list', '--page-size', 'ten'], { env: env() });
    expect(l).toMatchObject({ code: 2, stderr: 'error: --page-size takes a whole number (got "ten")\n' });
    expect(await requests()).toBe(before);
  });
});
