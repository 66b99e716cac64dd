// Rules proved here: R-REQ-13, R-PAGE-1, R-ERR-7, R-MEM-6 (dreams: create, list, get, cancel; docs/service.md "Other resources")
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

const newStore = async (name: string) => (await call(t.emu, 'POST', '/v1/memory-stores', { body: { name } })).body;

describe('emulator: dreams', () => {
  it('R-PAGE-1 a dream on a store is created running, readable and listed by store', async () => {
    const s = await newStore('dream-store');
    const d = await call(t.emu, 'POST', '/v1/dreams', { body: { memory_store_id: s.id, instructions: 'tidy up' } });
    expect(d.status).toBe(201);
    expect(d.body).toMatchObject({ memory_store_id: s.id, instructions: 'tidy up', status: 'running' });
    expect((await call(t.emu, 'GET', `/v1/dreams/${d.body.id}`)).body.id).toBe(d.body.id);
    const list = await call(t.emu, 'GET', `/v1/dreams?memory_store_id=${s.id}`);
    expect(list.body).toMatchObject({ items: [{ id: d.body.id }], next_page_token: null });
  });

  it('R-REQ-13 memory_store_id is required and must name a store', async () => {
    expect((await call(t.emu, 'POST', '/v1/dreams', { body: {} })).body.error.param).toBe('body.memory_store_id');
    const r = await call(t.emu, 'POST', '/v1/dreams', { body: { memory_store_id: 'memstore_nope' } });
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'body.memory_store_id' });
  });

  it('R-ERR-7 cancel ends a running dream; cancelling again is 400 failed_precondition_error', async () => {
    const s = await newStore('cancel-store');
    const d = (await call(t.emu, 'POST', '/v1/dreams', { body: { memory_store_id: s.id } })).body;
    const c = await call(t.emu, 'POST', `/v1/dreams/${d.id}/cancel`);
    expect(c.body).toMatchObject({ status: 'cancelled', cancelled_at: expect.any(String) });
    expect((await call(t.emu, 'POST', `/v1/dreams/${d.id}/cancel`)).body.error.type).toBe('failed_precondition_error');
  });

  it('R-MEM-6 a dream on an archived store is 400 failed_precondition_error', async () => {
    const s = await newStore('archived-store');
    await call(t.emu, 'POST', `/v1/memory-stores/${s.id}/archive`);
    expect((await call(t.emu, 'POST', '/v1/dreams', { body: { memory_store_id: s.id } })).body.error.type).toBe('failed_precondition_error');
  });
});
