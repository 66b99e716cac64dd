// Rules proved here: R-REQ-8, R-AUTH-6, R-WORK-2, R-ERR-21 — general server rules over HTTP.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearer, call, useEmulator } from '../helpers/emulator';
import { selfHostedEnvironment } from '../worker/helpers';

const t = useEmulator();
const WORK_STATUSES = ['queued', 'starting', 'active', 'stopping', 'completed', 'failed', 'cancelled'];
/** The worker operations: an environment work key or a session work token, never an API key (R-AUTH-9). */
const WORKER_ONLY = /\/work\/(poll|:id\/(ack|heartbeat|stop))$/;

const selfHosted = () => selfHostedEnvironment(t.emu);

describe('emulator: request format errors', () => {
  it('R-REQ-8 malformed JSON, a wrong content type, a wrong method and an unknown version are 400 invalid_request_error', async () => {
    const cases = [
      await call(t.emu, 'POST', '/v1/agents', { raw: '{"name": "a",', headers: { 'content-type': 'application/json' } }),
      await call(t.emu, 'POST', '/v1/agents', { raw: '{"name":"a","model":"m"}', headers: { 'content-type': 'text/plain' } }),
      await call(t.emu, 'PUT', '/v1/agents', { body: { name: 'a', model: 'm' } }),
      await call(t.emu, 'DELETE', '/v1/agents'),
      await call(t.emu, 'GET', '/v1/agents', { headers: { 'svc-api-version': '2026-09-01' } }),
    ];
    for (const r of cases) {
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe('invalid_request_error');
    }
    // None of them created anything.
    const agents = (await call(t.emu, 'GET', '/v1/agents?page_size=1000')).body.items;
    expect(agents.filter((a: { name: string }) => a.name === 'a')).toEqual([]);
  });
});

describe('emulator: what an API key reaches', () => {
  it('R-AUTH-6 an API key (all permissions in the emulator) reaches every project API but the worker operations', async () => {
    const routes = t.emu.router.routes.filter((r) => r.pattern.startsWith('/v1/'));
    expect(routes.length).toBeGreaterThan(50);
    const refused = routes.filter((r) => r.opts.auth && !r.opts.auth.includes('api')).map((r) => `${r.method} ${r.pattern}`);
    expect(refused.every((p) => WORKER_ONLY.test(p))).toBe(true);
    expect(refused).toHaveLength(4);
    // Over HTTP: every collection list answers 200 to the API key.
    const lists = routes.filter((r) => r.method === 'GET' && !r.pattern.includes(':')).map((r) => r.pattern);
    expect(lists).toEqual(expect.arrayContaining(['/v1/agents', '/v1/sessions', '/v1/environments', '/v1/vaults', '/v1/files', '/v1/skills', '/v1/triggers']));
    for (const path of lists) {
      const r = await call(t.emu, 'GET', path);
      expect({ path, status: r.status }).toEqual({ path, status: 200 });
    }
    const env = await selfHosted();
    expect((await call(t.emu, 'GET', `/v1/environments/${env.id}/work`)).status).toBe(200);
  });
});

describe('emulator: WorkItem status', () => {
  it('R-WORK-2 every status a row shows, across its lifecycle and on lists, is one of the seven', async () => {
    const env = await selfHosted();
    const seen = new Set<string>();
    const look = async (id: string) => {
      const r = await call(t.emu, 'GET', `/v1/environments/${env.id}/work/${id}`);
      seen.add(r.body.status);
      return r.body;
    };
    const lease = (id: string, op: string, body: Record<string, unknown>) =>
      call(t.emu, 'POST', `/v1/environments/${env.id}/work/${id}/${op}`, { body, headers: bearer(env.key) });
    // One row walked queued → starting → active → stopping → completed.
    t.emu.services.work!.ensureRow(`sess_${randomUUID()}`, env.id);
    const polled = await call(t.emu, 'GET', `/v1/environments/${env.id}/work/poll`, { headers: { ...bearer(env.key), 'svc-worker-id': 'w1' } });
    const id = polled.body.items[0].id;
    seen.add(polled.body.items[0].status);
    await lease(id, 'ack', { generation: 1 });
    await look(id);
    await lease(id, 'heartbeat', { generation: 1 });
    await look(id);
    await lease(id, 'stop', { generation: 1 });
    await look(id);
    await lease(id, 'stop', { generation: 1, final_status: 'completed' });
    await look(id);
    // Another ends cancelled: its session went away.
    const gone = `sess_${randomUUID()}`;
    t.emu.services.work!.ensureRow(gone, env.id);
    t.emu.services.work!.endRow(gone);
    for (const row of (await call(t.emu, 'GET', `/v1/environments/${env.id}/work?page_size=1000`)).body.items) seen.add(row.status);
    expect([...seen].sort()).toEqual(['active', 'cancelled', 'completed', 'queued', 'starting', 'stopping']);
    for (const s of seen) expect(WORK_STATUSES).toContain(s);
  });
});

describe('emulator: errors embedded in resources', () => {
  it('R-ERR-21 a failed TriggerRun carries its own TriggerError, not the HTTP error that caused it', async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'to-archive', model: 'm' } })).body.id;
    const message = { type: 'user.message', data: { content: [{ type: 'text', text: 'go' }] } };
    const trigger = (
      await call(t.emu, 'POST', '/v1/triggers', { body: { name: 'doomed', agent_id: agent, session_mode: 'new_session', initial_events: [message] } })
    ).body;
    expect((await call(t.emu, 'POST', `/v1/agents/${agent}/archive`)).status).toBe(200);
    // The session create inside the run would be an HTTP 400; the run itself is a resource, answered 2xx.
    const run = await call(t.emu, 'POST', `/v1/triggers/${trigger.id}/run`);
    expect(run.status).toBeLessThan(300);
    expect(run.body).toMatchObject({ status: 'failed', session_id: null, error: { type: 'fire_failed', message: expect.any(String) } });
    expect(run.body.error).not.toHaveProperty('request_id');
    expect(run.body.error.type).not.toMatch(/_error$/);
    const listed = (await call(t.emu, 'GET', `/v1/triggers/${trigger.id}/runs`)).body.items[0];
    expect(listed.error).toEqual(run.body.error);
  });
});
