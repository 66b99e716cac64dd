// Rules proved here: R-ERR-19, R-ERR-10, R-ERR-17, R-IDEM-14, R-IDEM-4, R-IDEM-10, R-IDEM-15, R-ERR-9, R-ERR-17, R-ERR-20, R-LIMIT-7
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { stats as emulatorStats, setFaults } from '../api/stream/helpers';

const t = useEmulator();

const faults = (body: Record<string, number>) => setFaults(t.emu, body);
const stats = () => emulatorStats(t.emu);

function recorder() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('retries', () => {
  it('R-IDEM-14 R-IDEM-4 R-IDEM-10 a create answered 500 after it was applied is retried with the same key and bytes, creating one agent', async () => {
    await faults({ fail_write_every: 1 });
    const before = await stats();
    const rec = recorder();
    const r = await svc(['agents', 'create', '--name', 'retried-once', '--model', 'm', '--debug'], { env: emuEnv(t.emu), sleep: rec.sleep });
    await faults({});
    expect(r.code).toBe(0);
    const keys = [...r.stderr.matchAll(/attempt=(\d) idempotency-key=(\S+)/g)];
    expect(keys.map((m) => m[1])).toEqual(['1', '2']);
    expect(keys[0][2]).toBe(keys[1][2]);
    // The server replays only byte-identical requests under one key: a replay proves the bytes matched.
    const after = await stats();
    expect(after.idempotent_replays - (before.idempotent_replays ?? 0)).toBe(1);
    const all = (await call(t.emu, 'GET', '/v1/agents?page_size=1000')).body.items;
    expect(all.filter((a: { name: string }) => a.name === 'retried-once')).toHaveLength(1);
    expect(rec.waits).toHaveLength(1);
  });

  it('R-IDEM-15 a create still failing after its retries says it may have been applied, how to check, and the key that replays it', async () => {
    await faults({ fail_write_every: 1 });
    const r = await svc(['agents', 'create', '--name', 'maybe-made', '--model', 'm', '--max-retries', '0', '--idempotency-key', 'intent-7'], {
      env: emuEnv(t.emu),
    });
    await faults({});
    expect(r.code).toBe(9);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^error: .*\(type=server_error status=500 .*\); it may have been applied: check with `svc agents list`, or run again with --idempotency-key intent-7 to replay it instead of creating twice$/,
      ),
    ]);
    // Following the advice replays the stored create: still one agent.
    const again = await svc(['agents', 'create', '--name', 'maybe-made', '--model', 'm', '--idempotency-key', 'intent-7', '-o', 'json'], {
      env: emuEnv(t.emu),
    });
    expect(again.code).toBe(0);
    const all = (await call(t.emu, 'GET', '/v1/agents?page_size=1000')).body.items;
    expect(all.filter((a: { name: string }) => a.name === 'maybe-made')).toHaveLength(1);
  });

  it('R-ERR-10 R-ERR-17 over quota: a 429 without Retry-After that svc never retries, exit 8', async () => {
    await faults({ quota_every: 1 });
    const raw = await call(t.emu, 'GET', '/v1/agents');
    const before = await stats();
    const rec = recorder();
    const r = await svc(['agents', 'list'], { env: emuEnv(t.emu), sleep: rec.sleep });
    const after = await stats();
    await faults({});
    expect(raw.status).toBe(429);
    expect(raw.body.error.type).toBe('exceeded_current_quota_error');
    expect(raw.headers.get('retry-after')).toBeNull();
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/^error: .*type=exceeded_current_quota_error status=429/);
    expect(after.over_quota - before.over_quota).toBe(1);
    expect(rec.waits).toEqual([]);
  });

  it('R-ERR-19 an update answered server_error after it was applied is confirmed by reading the resource, not sent again', async () => {
    const id = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'patch-me', model: 'm' } })).body.id;
    await faults({ fail_write_every: 1 });
    const rec = recorder();
    const r = await svc(['agents', 'update', id, '--system', 'x', '--debug', '-o', 'json'], { env: emuEnv(t.emu), sleep: rec.sleep });
    await faults({});
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id, system: 'x' });
    // One PATCH, then the confirming GET; nothing written twice, no back-off.
    expect([...r.stderr.matchAll(/^debug: > (\w+) /gm)].map((m) => m[1])).toEqual(['PATCH', 'GET']);
    expect(r.stderr).toMatch(/^note: the service answered server_error \(request_id=req_\S+\), but reading agent \S+ back shows the write was applied$/m);
    expect(rec.waits).toHaveLength(0);
  });

  it('R-ERR-19 an update answered server_error before it was applied is read back first, then sent once more', async () => {
    const id = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'patch-me-later', model: 'm' } })).body.id;
    // Every second write is refused unapplied: this one passes, the update's first PATCH is refused, its second passes.
    await faults({ reject_write_every: 2 });
    await call(t.emu, 'POST', '/v1/agents', { body: { name: 'counted', model: 'm' } });
    const r = await svc(['agents', 'update', id, '--system', 'y', '--debug', '-o', 'json'], { env: emuEnv(t.emu) });
    const s = await stats();
    await faults({});
    expect(r.code).toBe(0);
    expect([...r.stderr.matchAll(/^debug: > (\w+) /gm)].map((m) => m[1])).toEqual(['PATCH', 'GET', 'PATCH']);
    expect(r.stderr).toContain('reading agent ' + id + ' back shows the write was not applied, so it is sent again');
    expect(s.write_rejections).toBe(1);
    expect((await call(t.emu, 'GET', `/v1/agents/${id}`)).body.system).toBe('y');
  });

  it('R-ERR-19 with --max-retries 0 an unapplied update is reported, not sent again; a delete answered server_error is confirmed by a 404', async () => {
    const id = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'stays', model: 'm' } })).body.id;
    await faults({ reject_write_every: 1 });
    const r = await svc(['agents', 'update', id, '--system', 'z', '--debug', '--max-retries', '0'], { env: emuEnv(t.emu) });
    await faults({});
    expect(r.code).toBe(9);
    expect([...r.stderr.matchAll(/^debug: > (\w+) /gm)].map((m) => m[1])).toEqual(['PATCH', 'GET']);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(
      /^error: .*\(type=server_error status=500 .*\); reading agent \S+ back shows the write was not applied$/,
    );

    await faults({ fail_write_every: 1 });
    const d = await svc(['agents', 'delete', id, '-o', 'json'], { env: emuEnv(t.emu) });
    await faults({});
    expect(d.code).toBe(0);
    expect(JSON.parse(d.stdout)).toEqual({ id, deleted: true });
    expect((await call(t.emu, 'GET', `/v1/agents/${id}`)).status).toBe(404);
  });

  it('R-ERR-9 R-LIMIT-7 a 429 with Retry-After waits exactly that long (jitter at most +10 %) and succeeds', async () => {
    await faults({ rate_limit_every: 2, retry_after: 2 });
    const rec = recorder();
    // Two requests: whichever lands on the throttled count is retried.
    const a = await svc(['agents', 'list'], { env: emuEnv(t.emu), sleep: rec.sleep });
    const b = await svc(['agents', 'list'], { env: emuEnv(t.emu), sleep: rec.sleep });
    await faults({});
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(rec.waits).toHaveLength(1);
    expect(rec.waits[0]).toBeGreaterThanOrEqual(2000);
    expect(rec.waits[0]).toBeLessThanOrEqual(2200);
  });

  it('a Retry-After over 60 s gives up at once with exit 8', async () => {
    await faults({ rate_limit_every: 1, retry_after: 61 });
    const rec = recorder();
    const r = await svc(['agents', 'list'], { env: emuEnv(t.emu), sleep: rec.sleep });
    await faults({});
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('type=rate_limit_reached_error status=429');
    expect(rec.waits).toHaveLength(0);
  });

  it('rate limiting past --max-retries exits 8 after that many waits', async () => {
    await faults({ rate_limit_every: 1, retry_after: 1 });
    const rec = recorder();
    const r = await svc(['agents', 'list', '--max-retries', '2'], { env: emuEnv(t.emu), sleep: rec.sleep });
    await faults({});
    expect(r.code).toBe(8);
    expect(rec.waits).toHaveLength(2);
  });

  it('R-ERR-20 reads are retried on 5xx with back-off', async () => {
    // A read cannot be failed by the write fault, so use a malformed 503 from a stand-in server.
    const { createServer } = await import('node:http');
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      if (hits < 3) res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>busy</h1>');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[],"next_page_token":null}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const rec = recorder();
    const r = await svc(['agents', 'list'], { env: { SVC_BASE_URL: `http://127.0.0.1:${port}`, SVC_API_KEY: 'k' }, sleep: rec.sleep });
    server.close();
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[]\n');
    expect(rec.waits).toHaveLength(2);
    expect(rec.waits[1]).toBeGreaterThanOrEqual(rec.waits[0] / 2);
  });

  it('a body of another shape exits 9, reported by its status', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<html>gateway</html>'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const r = await svc(['agents', 'get', 'x'], { env: { SVC_BASE_URL: `http://127.0.0.1:${port}`, SVC_API_KEY: 'k' } });
    server.close();
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('status=404');
  });
});
