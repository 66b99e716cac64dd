// Rules proved here: R-IDEM-11 — a business rejection is stored and replayed under its key.
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

const replays = async (): Promise<number> => (await call(t.emu, 'GET', '/_emulator/stats')).body.idempotent_replays ?? 0;

describe('emulator: stored business rejections', () => {
  it('R-IDEM-11 a 409 name conflict is replayed under its key after the cause is gone, while a new key gets the new outcome', async () => {
    const body = { name: 'idem-business', description: 'kept' };
    const first = await call(t.emu, 'POST', '/v1/memory-stores', { body, headers: { 'idempotency-key': 'business-a' } });
    expect(first.status).toBe(201);
    const rejected = await call(t.emu, 'POST', '/v1/memory-stores', { body, headers: { 'idempotency-key': 'business-b' } });
    expect(rejected.status).toBe(409);
    expect(rejected.body.error.type).toBe('conflict_error');

    // The cause goes away: the name is free again.
    expect((await call(t.emu, 'DELETE', `/v1/memory-stores/${first.body.id}`)).status).toBe(204);

    const before = await replays();
    const again = await call(t.emu, 'POST', '/v1/memory-stores', { body, headers: { 'idempotency-key': 'business-b' } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(rejected.body);
    expect(again.headers.get('svc-request-id')).not.toBe(rejected.body.error.request_id);
    expect(await replays()).toBe(before + 1);

    const fresh = await call(t.emu, 'POST', '/v1/memory-stores', { body, headers: { 'idempotency-key': 'business-c' } });
    expect(fresh.status).toBe(201);
    const named = (await call(t.emu, 'GET', '/v1/memory-stores?page_size=1000')).body.items.filter((s: { name: string }) => s.name === body.name);
    expect(named.map((s: { id: string }) => s.id)).toEqual([fresh.body.id]);
  });
});
