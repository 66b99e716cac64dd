// Rules proved here: R-WORK-1..7, R-WORK-9, R-WORK-12..15, R-WORK-17, R-WORK-21..29, R-WORK-31, R-WORK-32, R-WORK-34..38,
// R-AUTH-2, R-AUTH-3, R-AUTH-4, R-AUTH-5, R-AUTH-7, R-AUTH-8, R-AUTH-9, R-AUTH-10
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server';
import type { SessionsService } from '../../src/emulator/services';
import { bearer, call, useEmulator } from '../helpers/emulator';
import { selfHostedEnvironment } from '../worker/helpers';

/** Long windows: the state walk never races a timer. */
const t = useEmulator();
/** Short windows for delivery-window and lease expiry. */
const fast = useEmulator({ leaseTtlMs: 300, deliveryWindowMs: 300 });

type Env = { id: string; key: string };
type Claim = { item: Record<string, any>; token: string; secret: Record<string, unknown> };

/** A fresh self-hosted environment and a work key, so each test owns its queue. */
const selfHosted = selfHostedEnvironment;

const poll = (emu: Emulator, env: Env, worker = 'w1', query = '', headers: Record<string, string> = bearer(env.key)) =>
  call(emu, 'GET', `/v1/environments/${env.id}/work/poll${query}`, { headers: { ...headers, 'svc-worker-id': worker } });

const lease = (emu: Emulator, env: Env, id: string, op: 'ack' | 'heartbeat' | 'stop', body: Record<string, unknown>, token = env.key) =>
  call(emu, 'POST', `/v1/environments/${env.id}/work/${id}/${op}`, { body, headers: bearer(token) });

const getRow = (emu: Emulator, env: Env, id: string, token = emu.apiKey) =>
  call(emu, 'GET', `/v1/environments/${env.id}/work/${id}`, { headers: bearer(token) });

/** Queues a row for a new session and claims it. */
async function claim(emu: Emulator, env: Env, worker = 'w1'): Promise<Claim> {
  const sessionId = `sess_${randomUUID()}`;
  emu.services.work!.ensureRow(sessionId, env.id);
  const r = await poll(emu, env, worker);
  expect(r.status).toBe(200);
  const item = r.body.items[0];
  const secret = JSON.parse(Buffer.from(item.secret, 'base64url').toString('utf8'));
  return { item, token: secret.sessions_token, secret };
}

/** A claimed row taken to `active` (ack, then the first heartbeat). */
async function activeRow(emu: Emulator, env: Env): Promise<Claim> {
  const c = await claim(emu, env);
  expect((await lease(emu, env, c.item.id, 'ack', { generation: 1 })).status).toBe(200);
  expect((await lease(emu, env, c.item.id, 'heartbeat', { generation: 1 })).body.status).toBe('active');
  return c;
}

/** Replaces the sessions service for one test, so busy/idle is explicit whether or not the sessions module is loaded. */
function stubSessions(emu: Emulator, busy: boolean): { cancelled: string[] } {
  const prev = emu.services.sessions;
  const cancelled: string[] = [];
  emu.services.sessions = { isBusy: () => busy, cancel: (id: string) => void cancelled.push(id) } as unknown as SessionsService;
  restorers.push(() => (emu.services.sessions = prev));
  return { cancelled };
}
const restorers: Array<() => void> = [];
afterEach(() => {
  for (const restore of restorers.splice(0)) restore();
  fast.emu.faults.set({});
});

/** Polls the row until `ready` holds (conditions, never fixed sleeps). */
async function waitForRow(emu: Emulator, env: Env, id: string, ready: (row: Record<string, any>) => boolean, ms = 5000): Promise<Record<string, any>> {
  const until = Date.now() + ms;
  for (;;) {
    const row = (await getRow(emu, env, id)).body;
    if (ready(row)) return row;
    if (Date.now() > until) throw new Error(`row ${id} never became ready: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const expectError = (r: { status: number; body: any }, status: number, type: string) => {
  expect(r.status).toBe(status);
  expect(r.body.error.type).toBe(type);
};

describe('emulator: work queue states', () => {
  it('R-WORK-1 R-WORK-4 R-WORK-5 R-WORK-7 R-WORK-13 R-WORK-22 R-WORK-26 a poll claims the queued row with its secret', async () => {
    const env = await selfHosted(t.emu);
    const c = await claim(t.emu, env, 'worker-a');
    expect(Object.keys(c.item).sort()).toEqual(
      ['claimed_at', 'created_at', 'environment_id', 'generation', 'id', 'lease_ttl_ms', 'secret', 'session_id', 'status', 'worker_id'].sort(),
    );
    expect(c.item).toMatchObject({ environment_id: env.id, status: 'queued', generation: 1, worker_id: 'worker-a', lease_ttl_ms: 30_000 });
    expect(typeof c.token).toBe('string');
    expect(c.secret).toHaveProperty('reserved');
  });

  it('R-WORK-3 R-WORK-4 a delivered row stays queued but is not handed out twice; an empty queue polls empty', async () => {
    const env = await selfHosted(t.emu);
    const c = await claim(t.emu, env);
    const again = await poll(t.emu, env, 'w2', '?block_ms=0');
    expect(again.status).toBe(200);
    expect(again.body.items).toEqual([]);
    expect((await getRow(t.emu, env, c.item.id)).body.status).toBe('queued');
  });

  it('R-WORK-4 a long poll waits for a row queued while it is parked', async () => {
    const env = await selfHosted(t.emu);
    const parkedBefore = t.emu.faults.stats.work_long_polls ?? 0;
    const pending = poll(t.emu, env, 'w1', '?block_ms=10000');
    while ((t.emu.faults.stats.work_long_polls ?? 0) === parkedBefore) await new Promise((r) => setTimeout(r, 10));
    t.emu.services.work!.ensureRow('sess_long_poll', env.id);
    const r = await pending;
    expect(r.body.items).toHaveLength(1);
    expect(r.body.items[0].session_id).toBe('sess_long_poll');
  });

  it('R-WORK-23 an ack within the delivery window moves queued to starting and stamps acknowledged_at', async () => {
    const env = await selfHosted(t.emu);
    const c = await claim(t.emu, env);
    const r = await lease(t.emu, env, c.item.id, 'ack', { generation: 1 });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('starting');
    expect(typeof r.body.acknowledged_at).toBe('string');
    expect(r.body).not.toHaveProperty('latest_heartbeat_at');
  });

  it('R-WORK-23 an ack of a row that was never delivered is 400 failed_precondition_error', async () => {
    const env = await selfHosted(t.emu);
    t.emu.services.work!.ensureRow('sess_undelivered', env.id);
    const [row] = (await call(t.emu, 'GET', `/v1/environments/${env.id}/work`)).body.items;
    expectError(await lease(t.emu, env, row.id, 'ack', { generation: 1 }), 400, 'failed_precondition_error');
  });

  it('R-WORK-24 the first heartbeat moves starting to active and stamps started_at', async () => {
    const env = await selfHosted(t.emu);
    const c = await claim(t.emu, env);
    await lease(t.emu, env, c.item.id, 'ack', { generation: 1 });
    const r = await lease(t.emu, env, c.item.id, 'heartbeat', { generation: 1 });
    expect(r.body.status).toBe('active');
    expect(typeof r.body.started_at).toBe('string');
    expect(r.body.latest_heartbeat_at).toBe(r.body.started_at);
  });

  it('R-WORK-24 a heartbeat before the ack is 400 failed_precondition_error', async () => {
    const env = await selfHosted(t.emu);
    const c = await claim(t.emu, env);
    expectError(await lease(t.emu, env, c.item.id, 'heartbeat', { generation: 1 }), 400, 'failed_precondition_error');
  });

  it('R-WORK-25 a heartbeat on an active row keeps it active and updates latest_heartbeat_at', async () => {
    const env = await selfHosted(t.emu);
    const c = await activeRow(t.emu, env);
    const first = (await getRow(t.emu, env, c.item.id)).body;
    const r = await lease(t.emu, env, c.item.id, 'heartbeat', { generation: 1 });
    expect(r.body.status).toBe('active');
    expect(r.body.started_at).toBe(first.started_at);
    expect(Date.parse(r.body.latest_heartbeat_at)).toBeGreaterThanOrEqual(Date.parse(first.latest_heartbeat_at));
  });

  it('R-WORK-27 R-WORK-28 a stop without final_status moves a leased row to stopping and keeps the first stop_requested_at', async () => {
    const env = await selfHosted(t.emu);
    const c = await activeRow(t.emu, env);
    const first = await lease(t.emu, env, c.item.id, 'stop', { generation: 1 });
    expect(first.body.status).toBe('stopping');
    expect(typeof first.body.stop_requested_at).toBe('string');
    while (new Date().toISOString() === first.body.stop_requested_at) await new Promise((r) => setTimeout(r, 1));
    const second = await lease(t.emu, env, c.item.id, 'stop', { generation: 1 });
    expect(second.body.stop_requested_at).toBe(first.body.stop_requested_at);
  });

  it('R-WORK-27 a starting row can be stopped too (it is leased)', async () => {
    const env = await selfHosted(t.emu);
    const c = await claim(t.emu, env);
    await lease(t.emu, env, c.item.id, 'ack', { generation: 1 });
    expect((await lease(t.emu, env, c.item.id, 'stop', { generation: 1 })).body.status).toBe('stopping');
  });

  it('R-WORK-29 R-WORK-34 R-WORK-12 completing a stopping row stamps stopped_at, cancels a busy session and ends the token', async () => {
    const env = await selfHosted(t.emu);
    const c = await activeRow(t.emu, env);
    expect((await getRow(t.emu, env, c.item.id)).body).not.toHaveProperty('stopped_at');
    await lease(t.emu, env, c.item.id, 'stop', { generation: 1 });
    const sessions = stubSessions(t.emu, true);
    const r = await lease(t.emu, env, c.item.id, 'stop', { generation: 1, final_status: 'completed' });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('completed');
    expect(typeof r.body.stopped_at).toBe('string');
    expect(r.body).not.toHaveProperty('worker_id');
    expect(sessions.cancelled).toEqual([c.item.session_id]);
    expectError(await lease(t.emu, env, c.item.id, 'heartbeat', { generation: 1 }, c.token), 401, 'authentication_error');
  });

  it('R-WORK-31 an idle worker completes its active row without cancelling the session', async () => {
    const env = await selfHosted(t.emu);
    const c = await activeRow(t.emu, env);
    const sessions = stubSessions(t.emu, false);
    const r = await lease(t.emu, env, c.item.id, 'stop', { generation: 1, final_status: 'completed' });
    expect(r.body.status).toBe('completed');
    expect(r.body).not.toHaveProperty('stop_requested_at');
    expect(sessions.cancelled).toEqual([]);
  });

  it('R-WORK-31 with no sessions module the session counts as not busy', async () => {
    const env = await selfHosted(t.emu);
    const c = await activeRow(t.emu, env);
    const prev = t.emu.services.sessions;
    t.emu.services.sessions = undefined;
    restorers.push(() => (t.emu.services.sessions = prev));
    expect((await lease(t.emu, env, c.item.id, 'stop', { generation: 1, final_status: 'completed' })).body.status).toBe('completed');
  });

  it('R-WORK-32 an idle-worker stop while the session is busy is 409 failed_precondition_error and leaves the row unchanged', async () => {
    const env = await selfHosted(t.emu);
    const c = await activeRow(t.emu, env);
    const before = (await getRow(t.emu, env, c.item.id)).body;
    const sessions = stubSessions(t.emu, true);
    expectError(await lease(t.emu, env, c.item.id, 'stop', { generation: 1, final_status: 'completed' }), 409, 'failed_precondition_error');
    expect((await getRow(t.emu, env, c.item.id)).body).toEqual(before);
    expect(sessions.cancelled).toEqual([]);
  });

  it('R-WORK-36 a stop carrying force or reason is 400 invalid_parameter_error', async () => {
    for (const member of ['force', 'reason']) {
      const env = await selfHosted(t.emu);
      const c = await activeRow(t.emu, env);
      const r = await lease(t.emu, env, c.item.id, 'stop', { generation: 1, [member]: member === 'force' ? true : 'why' });
      expectError(r, 400, 'invalid_parameter_error');
      expect(r.body.error.param).toBe(`body.${member}`);
    }
  });

  it('R-WORK-17 a generation other than the current one is 412 failed_precondition_error', async () => {
    const env = await selfHosted(t.emu);
    const c = await activeRow(t.emu, env);
    expectError(await lease(t.emu, env, c.item.id, 'heartbeat', { generation: 2 }), 412, 'failed_precondition_error');
  });

  it('R-WORK-6 the secret is returned by no endpoint but the claiming poll', async () => {
    const env = await selfHosted(t.emu);
    const c = await claim(t.emu, env);
    const answers = [
      await lease(t.emu, env, c.item.id, 'ack', { generation: 1 }),
      await lease(t.emu, env, c.item.id, 'heartbeat', { generation: 1 }),
      await getRow(t.emu, env, c.item.id),
      await getRow(t.emu, env, c.item.id, env.key),
      await lease(t.emu, env, c.item.id, 'stop', { generation: 1 }),
      await lease(t.emu, env, c.item.id, 'stop', { generation: 1, final_status: 'completed' }),
    ];
    const list = await call(t.emu, 'GET', `/v1/environments/${env.id}/work`);
    for (const r of answers) expect(r.body).not.toHaveProperty('secret');
    for (const item of list.body.items) expect(item).not.toHaveProperty('secret');
  });

  it('R-WORK-37 R-WORK-38 R-WORK-12 a cancelled row stays readable and listed, and its token ends', async () => {
    const env = await selfHosted(t.emu);
    const c = await activeRow(t.emu, env);
    t.emu.services.work!.endRow(c.item.session_id);
    const row = (await getRow(t.emu, env, c.item.id, env.key)).body;
    expect(row.status).toBe('cancelled');
    expect(typeof row.stopped_at).toBe('string');
    const list = await call(t.emu, 'GET', `/v1/environments/${env.id}/work`);
    expect(list.body.items.map((i: { id: string }) => i.id)).toContain(c.item.id);
    expectError(await lease(t.emu, env, c.item.id, 'heartbeat', { generation: 1 }, c.token), 401, 'authentication_error');
  });

  it('R-WORK-37 ensureRow keeps one live row per session and queues a new one after the row ends', async () => {
    const env = await selfHosted(t.emu);
    const work = t.emu.services.work!;
    work.ensureRow('sess_once', env.id);
    work.ensureRow('sess_once', env.id);
    const ids = async () =>
      (await call(t.emu, 'GET', `/v1/environments/${env.id}/work`)).body.items.map(
        (i: { session_id: string; status: string }) => `${i.session_id}:${i.status}`,
      );
    expect(await ids()).toEqual(['sess_once:queued']);
    work.endRow('sess_once');
    work.ensureRow('sess_once', env.id);
    // Newest first: the spec gives the list no order.
    expect(await ids()).toEqual(['sess_once:queued', 'sess_once:cancelled']);
  });

  it('R-REQ-14 block_ms over 30000 and a missing Svc-Worker-Id are 400 invalid_parameter_error', async () => {
    const env = await selfHosted(t.emu);
    const r = await poll(t.emu, env, 'w1', '?block_ms=30001');
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'query.block_ms' });
    const noWorker = await call(t.emu, 'GET', `/v1/environments/${env.id}/work/poll`, { headers: bearer(env.key) });
    expect(noWorker.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'header.svc-worker-id' });
  });
});

describe('emulator: work credentials', () => {
  it('R-WORK-35 R-AUTH-8 a session work token acks, heartbeats and stops its own row', async () => {
    const env = await selfHosted(t.emu);
    const c = await claim(t.emu, env);
    expect((await lease(t.emu, env, c.item.id, 'ack', { generation: 1 }, c.token)).body.status).toBe('starting');
    expect((await lease(t.emu, env, c.item.id, 'heartbeat', { generation: 1 }, c.token)).body.status).toBe('active');
    expect((await lease(t.emu, env, c.item.id, 'stop', { generation: 1 }, c.token)).body.status).toBe('stopping');
  });

  it('R-WORK-9 R-AUTH-8 a session work token on another row is 403 permission_denied_error', async () => {
    const env = await selfHosted(t.emu);
    const mine = await claim(t.emu, env);
    const other = await claim(t.emu, env);
    expectError(await lease(t.emu, env, other.item.id, 'ack', { generation: 1 }, mine.token), 403, 'permission_denied_error');
  });

  it('R-AUTH-10 a session work token cannot poll, nor read rows (403)', async () => {
    const env = await selfHosted(t.emu);
    const c = await claim(t.emu, env);
    expectError(await poll(t.emu, env, 'w1', '', bearer(c.token)), 403, 'permission_denied_error');
    expectError(await getRow(t.emu, env, c.item.id, c.token), 403, 'permission_denied_error');
  });

  it('R-AUTH-9 an API key on poll, ack, heartbeat and stop is 403 permission_denied_error', async () => {
    const env = await selfHosted(t.emu);
    const c = await claim(t.emu, env);
    expectError(await poll(t.emu, env, 'w1', '', bearer(t.emu.apiKey)), 403, 'permission_denied_error');
    for (const op of ['ack', 'heartbeat', 'stop'] as const) {
      expectError(await lease(t.emu, env, c.item.id, op, { generation: 1 }, t.emu.apiKey), 403, 'permission_denied_error');
    }
  });

  it('R-AUTH-7 R-AUTH-4 a work key of another environment is 403 on poll and on its rows', async () => {
    const env = await selfHosted(t.emu);
    const stranger = await selfHosted(t.emu);
    const c = await claim(t.emu, env);
    expectError(await poll(t.emu, env, 'w1', '', bearer(stranger.key)), 403, 'permission_denied_error');
    expectError(await getRow(t.emu, env, c.item.id, stranger.key), 403, 'permission_denied_error');
    expectError(await lease(t.emu, env, c.item.id, 'ack', { generation: 1 }, stranger.key), 403, 'permission_denied_error');
  });

  it('R-AUTH-2 R-AUTH-3 a missing or unknown credential on work paths is 401 authentication_error', async () => {
    const env = await selfHosted(t.emu);
    expectError(await poll(t.emu, env, 'w1', '', { authorization: '' }), 401, 'authentication_error');
    expectError(await poll(t.emu, env, 'w1', '', bearer('ek_emu_unknown')), 401, 'authentication_error');
  });

  it('R-AUTH-5 a row of another environment, or an unknown row, is 404 resource_not_found_error', async () => {
    const env = await selfHosted(t.emu);
    const elsewhere = await selfHosted(t.emu);
    const c = await claim(t.emu, elsewhere);
    expectError(await getRow(t.emu, env, c.item.id), 404, 'resource_not_found_error');
    expectError(await getRow(t.emu, env, 'work_missing'), 404, 'resource_not_found_error');
  });
});

describe('emulator: work windows and lost workers', () => {
  it('R-WORK-3 R-WORK-14 R-WORK-17 an unacknowledged row returns to the queue after the delivery window, fencing the late ack', async () => {
    const env = await selfHosted(fast.emu);
    const c = await claim(fast.emu, env);
    const row = await waitForRow(fast.emu, env, c.item.id, (r) => r.generation === 2);
    expect(row.status).toBe('queued');
    expect(row).not.toHaveProperty('worker_id');
    expect(row).not.toHaveProperty('claimed_at');
    expectError(await lease(fast.emu, env, c.item.id, 'ack', { generation: 1 }), 412, 'failed_precondition_error');
    expectError(await lease(fast.emu, env, c.item.id, 'ack', { generation: 1 }, c.token), 401, 'authentication_error');
  });

  it("R-WORK-14 R-WORK-15 R-WORK-12 R-WORK-17 a lost worker's row is re-queued at generation + 1 and a successor gets a new credential", async () => {
    const env = await selfHosted(fast.emu);
    const first = await claim(fast.emu, env, 'w-first');
    await lease(fast.emu, env, first.item.id, 'ack', { generation: 1 });
    const row = await waitForRow(fast.emu, env, first.item.id, (r) => r.status === 'queued');
    expect(row.generation).toBe(2);
    expect(row).not.toHaveProperty('acknowledged_at');
    const successor = await poll(fast.emu, env, 'w-next');
    const item = successor.body.items[0];
    expect(item).toMatchObject({ id: first.item.id, generation: 2, worker_id: 'w-next' });
    expect(item.secret).not.toBe(first.item.secret);
    const token = JSON.parse(Buffer.from(item.secret, 'base64url').toString('utf8')).sessions_token;
    expectError(await lease(fast.emu, env, first.item.id, 'heartbeat', { generation: 1 }, first.token), 401, 'authentication_error');
    expectError(await lease(fast.emu, env, first.item.id, 'heartbeat', { generation: 1 }), 412, 'failed_precondition_error');
    expectError(await lease(fast.emu, env, first.item.id, 'stop', { generation: 1 }), 412, 'failed_precondition_error');
    expect((await lease(fast.emu, env, first.item.id, 'ack', { generation: 2 }, token)).body.status).toBe('starting');
  });

  it('R-WORK-21 heartbeats renew the lease past its length', async () => {
    const env = await selfHosted(fast.emu);
    const c = await claim(fast.emu, env);
    await lease(fast.emu, env, c.item.id, 'ack', { generation: 1 });
    const until = Date.now() + 3 * c.item.lease_ttl_ms;
    while (Date.now() < until) {
      const r = await lease(fast.emu, env, c.item.id, 'heartbeat', { generation: 1 }, c.token);
      expect(r.body).toMatchObject({ status: 'active', generation: 1 });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it('R-WORK-28 stop_requested_at is kept after the lease is reclaimed', async () => {
    const env = await selfHosted(fast.emu);
    const c = await claim(fast.emu, env);
    await lease(fast.emu, env, c.item.id, 'ack', { generation: 1 });
    const stopping = await lease(fast.emu, env, c.item.id, 'stop', { generation: 1 });
    expect(stopping.body.status).toBe('stopping');
    const row = await waitForRow(fast.emu, env, c.item.id, (r) => r.status === 'queued');
    expect(row.generation).toBe(2);
    expect(row.stop_requested_at).toBe(stopping.body.stop_requested_at);
  });

  it("R-WORK-14 the lose_worker fault refuses that worker's heartbeats until its row is re-queued", async () => {
    const env = await selfHosted(fast.emu);
    const c = await claim(fast.emu, env, 'w-doomed');
    await lease(fast.emu, env, c.item.id, 'ack', { generation: 1 });
    fast.emu.faults.set({ lose_worker: 'w-doomed' });
    const refusedBefore = fast.emu.faults.stats.lose_worker ?? 0;
    expectError(await lease(fast.emu, env, c.item.id, 'heartbeat', { generation: 1 }, c.token), 500, 'server_error');
    expect(fast.emu.faults.stats.lose_worker).toBe(refusedBefore + 1);
    const row = await waitForRow(fast.emu, env, c.item.id, (r) => r.status === 'queued');
    expect(row.generation).toBe(2);
    expectError(await lease(fast.emu, env, c.item.id, 'heartbeat', { generation: 1 }, c.token), 401, 'authentication_error');
  });

  it('R-WORK-14 lose_worker "*" refuses every worker, and a worker it does not name keeps its lease', async () => {
    const env = await selfHosted(fast.emu);
    const c = await claim(fast.emu, env, 'w-safe');
    await lease(fast.emu, env, c.item.id, 'ack', { generation: 1 });
    fast.emu.faults.set({ lose_worker: 'w-other' });
    expect((await lease(fast.emu, env, c.item.id, 'heartbeat', { generation: 1 })).body.status).toBe('active');
    fast.emu.faults.set({ lose_worker: '*' });
    expectError(await lease(fast.emu, env, c.item.id, 'heartbeat', { generation: 1 }), 500, 'server_error');
  });
});
