// Rules proved here: R-WORK-5, R-WORK-6, R-WORK-11, R-WORK-17, R-WORK-23, R-WORK-24, R-WORK-27, R-WORK-29, R-AUTH-9
import { beforeAll, describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, send, waitUntil } from '../helpers/sse';
import { withoutSecret } from '../../src/commands/work/credential';
import { mapAsync } from '../../src/cli/verbs/resource';

const t = useEmulator();
let envId = '';
let key = '';
const apiOnly = () => emuEnv(t.emu);
const worker = () => emuEnv(t.emu, { SVC_ENVIRONMENT_KEY: key });

/** A session on the self-hosted environment asks for a sandbox tool: its row is queued. */
async function queuedRow(): Promise<{ id: string; session_id: string }> {
  const s = await createSession(t.emu, { environment_id: envId });
  await send(t.emu, s.id, '/tool bash {"cmd":"ls"}');
  return waitUntil(async () => {
    const rows = (await call(t.emu, 'GET', `/v1/environments/${envId}/work?page_size=1000`)).body.items;
    return rows.find((r: { session_id: string; status: string }) => r.session_id === s.id && r.status === 'queued');
  }, 'a queued work row');
}

/** Claims rows until this one is ours (earlier tests may leave queued rows behind). */
async function pollFor(rowId: string, extra: string[] = [], tty = false): Promise<{ stdout: string; stderr: string; code: number }> {
  for (let i = 0; i < 20; i++) {
    const r = await svc(['work', 'poll', envId, '--worker-id', 'test-worker', ...extra], { env: { ...worker(), NO_COLOR: '1' }, stdoutTTY: tty, columns: 200 });
    if (r.code !== 0 || r.stdout.includes(rowId)) return r;
  }
  throw new Error(`row ${rowId} was never claimed`);
}

beforeAll(async () => {
  const e = await svc(['environments', 'create', '--name', 'workers', '--self-hosted', '-o', 'id'], { env: apiOnly() });
  envId = e.stdout.trim();
  const k = await call(t.emu, 'POST', `/_emulator/environments/${envId}/keys`);
  expect(k.status).toBe(201);
  key = k.body.key;
});

describe('svc work', () => {
  it('lists and gets rows with the API key when no environment key is set', async () => {
    const row = await queuedRow();
    const list = JSON.parse((await svc(['work', 'list', envId], { env: apiOnly() })).stdout);
    expect(list.map((r: { id: string }) => r.id)).toContain(row.id);
    const got = await svc(['work', 'get', envId, row.id], { env: apiOnly() });
    expect(JSON.parse(got.stdout)).toMatchObject({ id: row.id, status: 'queued', generation: 1 });
  });

  it('R-AUTH-9 poll without an environment key is exit 4 before any request, naming SVC_ENVIRONMENT_KEY', async () => {
    const before = (await call(t.emu, 'GET', '/_emulator/stats')).body.requests;
    const r = await svc(['work', 'poll', envId], { env: apiOnly() });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: no environment work key configured: set SVC_ENVIRONMENT_KEY/);
    expect((await call(t.emu, 'GET', '/_emulator/stats')).body.requests).toBe(before);
  });

  it('R-WORK-5 R-WORK-11 poll claims a row and prints it without its secret, in every format', async () => {
    const row = await queuedRow();
    const r = await pollFor(row.id, ['--debug']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/debug: > GET .*\/work\/poll/);
    const [claimed] = JSON.parse(r.stdout);
    expect(claimed).toMatchObject({ id: row.id, status: 'queued', worker_id: 'test-worker' });
    expect(claimed).not.toHaveProperty('secret');
    expect(r.stdout + r.stderr).not.toMatch(/secret/i);
    expect((await call(t.emu, 'GET', `/v1/environments/${envId}/work/${row.id}`)).body.worker_id).toBe('test-worker');
    for (const fmt of ['yaml', 'ndjson', 'table']) {
      const next = await queuedRow();
      const out = await pollFor(next.id, ['-o', fmt]);
      expect(out.stdout, fmt).toContain(next.id);
      expect(out.stdout, fmt).not.toMatch(/secret/i);
    }
  });

  it('poll --show-secret prints the secret, whose sessions_token is the session work token', async () => {
    const row = await queuedRow();
    const r = await pollFor(row.id, ['--show-secret']);
    const [claimed] = JSON.parse(r.stdout);
    const bundle = JSON.parse(Buffer.from(claimed.secret, 'base64url').toString('utf8'));
    expect(typeof bundle.sessions_token).toBe('string');
    // The token works on the row: ack with it (R-WORK-8 path) succeeds.
    const ack = await call(t.emu, 'POST', `/v1/environments/${envId}/work/${row.id}/ack`, {
      body: { generation: 1 },
      headers: { authorization: `Bearer ${bundle.sessions_token}` },
    });
    expect(ack.status).toBe(200);
  });

  it('poll on a terminal warns on stderr that the row is now held by this command', async () => {
    const row = await queuedRow();
    const r = await pollFor(row.id, [], true);
    expect(r.stdout).toMatch(/^ID\s+SESSION\s+STATUS\s+GENERATION\s+WORKER\s+CREATED\n/);
    expect(r.stderr).toMatch(new RegExp(`warning: claimed work row ${row.id} \\(generation 1\\) as worker test-worker; ack it within the delivery window`));
    const piped = await svc(['work', 'poll', envId], { env: worker() });
    expect(piped.stderr).toBe('');
  });

  it('an empty queue prints an empty list', async () => {
    let r;
    do r = await svc(['work', 'poll', envId], { env: worker() });
    while (JSON.parse(r.stdout).length > 0);
    expect(r.stdout).toBe('[]\n');
  });

  it('R-WORK-23 R-WORK-24 R-WORK-27 R-WORK-29 R-WORK-6 drives a row through ack, heartbeat, stop and completion', async () => {
    const row = await queuedRow();
    await pollFor(row.id);
    const ack = await svc(['work', 'ack', envId, row.id, '--generation', '1'], { env: worker() });
    expect(JSON.parse(ack.stdout)).toMatchObject({ status: 'starting' });
    expect(JSON.parse(ack.stdout).acknowledged_at).toBeTruthy();
    const hb = await svc(['work', 'heartbeat', envId, row.id, '--generation', '1'], { env: worker() });
    expect(JSON.parse(hb.stdout)).toMatchObject({ status: 'active' });
    const stop = await svc(['work', 'stop', envId, row.id, '--generation', '1'], { env: worker() });
    expect(JSON.parse(stop.stdout)).toMatchObject({ status: 'stopping' });
    const done = await svc(['work', 'stop', envId, row.id, '--generation', '1', '--final-status', 'completed'], { env: worker() });
    expect(JSON.parse(done.stdout)).toMatchObject({ status: 'completed' });
    for (const r of [ack, hb, stop, done]) expect(r.stdout).not.toMatch(/secret/i);
    expect((await call(t.emu, 'GET', `/v1/environments/${envId}/work/${row.id}`)).body.status).toBe('completed');
  });

  it('R-WORK-17 a stale generation is exit 7 with one error line', async () => {
    const row = await queuedRow();
    await pollFor(row.id);
    const r = await svc(['work', 'ack', envId, row.id, '--generation', '2'], { env: worker() });
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*type=failed_precondition_error status=412/);
  });

  it.each([
    [['ack', 'ENV', 'ROW']],
    [['ack', 'ENV', 'ROW', '--generation', '0']],
    [['heartbeat', 'ENV', 'ROW', '--generation', 'two']],
    [['stop', 'ENV', 'ROW', '--generation', '1', '--final-status', 'failed']],
    [['poll', 'ENV', '--block-ms', '30001']],
  ])('refuses %j with exit 2, one error line and no request', async (args) => {
    const before = (await call(t.emu, 'GET', '/_emulator/stats')).body.requests;
    const r = await svc(['work', ...args], { env: worker() });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect((await call(t.emu, 'GET', '/_emulator/stats')).body.requests).toBe(before);
  });

  it('every verb has an example in --help', async () => {
    for (const verb of ['list', 'get', 'poll', 'ack', 'heartbeat', 'stop']) {
      expect((await svc(['work', verb, '--help'])).stdout, verb).toMatch(/Examples:\n\s+\$ svc work /);
    }
  });
});

describe('work list stripping (R-WORK-11)', () => {
  it('drops the secret of every listed row, in order, as the rows stream', async () => {
    async function* rows() {
      yield { id: 'w1', secret: { sessions_token: 'tok1' } };
      yield { id: 'w2', secret: { sessions_token: 'tok2' } };
    }
    const out: unknown[] = [];
    for await (const r of mapAsync(rows() as AsyncIterable<any>, withoutSecret)) out.push(r);
    expect(out).toEqual([{ id: 'w1' }, { id: 'w2' }]);
  });
});
