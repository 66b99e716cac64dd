// Rules proved here: R-WORK-11, R-WORK-12, R-WORK-18, R-WORK-30, R-WORK-33 — with --on-work, over real processes.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeSecret } from '../../src/api/work';
import { svc, tempConfigDir } from '../helpers/cli';
import { bearer, call, requestCount, useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';
import { expectNoSecrets, gone, recordSessionTokens, resultText, rowOf, selfHostedEnvironment, toolResults, toolSession, waitRow, workdir } from './helpers';
import { useBundledSvc } from '../helpers/bundled';

const t = useEmulator({ leaseTtlMs: 1500, deliveryWindowMs: 3000, modelStepMs: 2 });
const built = useBundledSvc();

function worker(envKey: string, args: string[], signal?: AbortSignal) {
  const env = { SVC_BASE_URL: t.emu.url, SVC_ENVIRONMENT_KEY: envKey, SVC_CONFIG_DIR: tempConfigDir(), PATH: process.env.PATH };
  return svc(['worker', 'run', ...args], { env, signal });
}

/** An executable script in `dir`; `--on-work` takes its path. */
function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const serveCmd = (dir: string) => `exec "${process.execPath}" "${built.bin}" worker serve --workdir "${dir}"`;
const readPid = (path: string) => (existsSync(path) && Number(readFileSync(path, 'utf8'))) || undefined;
const secrets = (envKey: string) => [envKey, ...recordSessionTokens(t.emu).tokens.map((x) => x.token)];

describe('svc worker run --on-work', () => {
  it('R-WORK-11 hands the row and the token to CMD on standard input only: not in argv, the environment or any log', async () => {
    const tokens = recordSessionTokens(t.emu);
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    // A stand-in for a container script: records what it was given (the token only as its hash), then runs serve on the same input.
    const recorder = join(dir, 'record.mjs');
    writeFileSync(
      recorder,
      `
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
const [out, bin, dir] = process.argv.slice(2);
let buf = '';
let child;
process.stdin.on('data', (c) => {
  if (child) return void child.stdin.write(c);
  buf += c;
  const at = buf.indexOf('\\n');
  if (at < 0) return;
  const h = JSON.parse(buf.slice(0, at));
  const handoff = { ...h, sessions_token: createHash('sha256').update(h.sessions_token).digest('hex') };
  writeFileSync(out, JSON.stringify({ argv: process.argv, env: process.env, handoff }));
  child = spawn(process.execPath, [bin, 'worker', 'serve', '--workdir', dir], { stdio: ['pipe', 'inherit', 'inherit'] });
  child.stdin.write(buf);
  child.on('exit', (code) => process.exit(code ?? 1));
});
process.stdin.on('end', () => child?.stdin.end());
`,
    );
    const record = join(dir, 'record.json');
    const running = worker(env.key, [
      '--environment',
      env.id,
      '--workdir',
      dir,
      '--once',
      '--on-work',
      `${process.execPath} ${recorder} ${record} ${built.bin} ${dir}`,
    ]);
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo served by $(basename $PWD)"}');
    const r = await running;
    expect(r.code).toBe(0);
    expect((await toolResults(t.emu, sid)).map(resultText)).toEqual([`served by ${dir.split('/').pop()}\n`]);
    const row = await rowOf(t.emu, env.id, sid);
    expect(row).toMatchObject({ status: 'completed', generation: 1 });
    const got = JSON.parse(readFileSync(record, 'utf8'));
    const token = tokens.tokens.filter((x) => x.sessionId === sid).at(-1)!.token;
    expect(got.handoff.sessions_token).toBe(createHash('sha256').update(token).digest('hex'));
    expect(got.handoff.row).toMatchObject({ id: row.id, session_id: sid, environment_id: env.id, generation: 1 });
    expect(got.handoff.row.secret).toBeUndefined();
    expect(got.env).toMatchObject({
      SVC_WORK_ID: row.id,
      SVC_SESSION_ID: sid,
      SVC_ENVIRONMENT_ID: env.id,
      SVC_WORK_GENERATION: '1',
      SVC_BASE_URL: t.emu.url,
      SVC_API_VERSION: '2026-09-01-beta',
    });
    expect(got.env.SVC_ENVIRONMENT_KEY).toBeUndefined();
    expectNoSecrets(JSON.stringify(got.argv) + JSON.stringify(got.env), secrets(env.key));
    // CMD's own output reaches the worker's stderr, prefixed with its row.
    expect(r.stderr).toMatch(new RegExp(`^\\[row=${row.id} session=${sid}\\] .*tool result written`, 'm'));
    expectNoSecrets(r.stdout + r.stderr, secrets(env.key));
  }, 30_000);

  it("R-WORK-18 a 412 ends CMD's whole process group and nothing more is written for the row", async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const cmd = script(dir, 'cmd.sh', `sleep 60 & echo $! > "${dir}/bg.pid"\n${serveCmd(dir)}`);
    const running = worker(env.key, ['--environment', env.id, '--workdir', dir, '--once', '--on-work', cmd]);
    const sid = await toolSession(
      t.emu,
      env.id,
      '/tool bash {"command":"if [ -e tool.pid ]; then echo second run; else echo $$ > tool.pid; exec sleep 30; fi"}',
    );
    const toolPid = await waitUntil(() => readPid(join(dir, 'tool.pid')), 'the first run to start', 15_000);
    const bgPid = readPid(join(dir, 'bg.pid'))!;
    const row = await waitRow(t.emu, env.id, sid, (w) => w.status === 'active', 'the lease to be active');
    // The platform moves the generation on while the worker still holds its old one: its next heartbeat is stale.
    const rows = t.emu.collection<any>('work_rows', 'work', 'work row');
    rows.touch(rows.get(row.id), { generation: row.generation + 1 });
    await waitUntil(() => gone(bgPid) && gone(toolPid), "CMD's group and its tool to be gone", 15_000);
    const r = await running;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/command ended: the lease was lost/);
    // Only the successor claim (generation 3, after the lease lapsed) wrote a result.
    expect((await toolResults(t.emu, sid)).map(resultText)).toEqual(['second run\n']);
    expect(await rowOf(t.emu, env.id, sid)).toMatchObject({ status: 'completed', generation: 3 });
  }, 40_000);

  it('R-WORK-33 a CMD that exits while the session has work is restarted, backed off, and the row released after repeated fast failures', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const cmd = script(dir, 'crash.sh', `echo crashing; echo run >> "${dir}/runs"; exit 3`);
    const ac = new AbortController();
    const running = worker(env.key, ['--environment', env.id, '--workdir', dir, '--on-work', cmd, '--log-format', 'json'], ac.signal);
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo never"}');
    const first = await waitRow(t.emu, env.id, sid, (w) => w.status === 'active', 'the lease to be active');
    // Released: the lease lapses and the platform re-queues the row for another worker at generation + 1.
    await waitRow(t.emu, env.id, sid, (w) => w.generation === first.generation + 1, 'the row to be released', 25_000);
    ac.abort();
    const r = await running;
    expect(r.code).toBe(0);
    const lines = r.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const restarts = lines.filter((l) => l.msg === 'command exited while the session has work; restarting it' && l.generation === first.generation);
    expect(restarts.map((l) => l.failures)).toEqual([1, 2, 3, 4]);
    expect(restarts.every((l) => l.exit_code === 3 && l.retry_ms > 0)).toBe(true);
    expect(lines.some((l) => l.msg === 'command keeps failing; releasing the row for another worker' && l.failures === 5)).toBe(true);
    expect(lines.find((l) => l.msg === 'command output')).toMatchObject({ row: first.id, session: sid, line: 'crashing' });
    expect(await toolResults(t.emu, sid)).toEqual([]);
  }, 40_000);

  it('R-WORK-30 Ctrl-C to the worker winds every CMD down: tools cancelled, results written, every row stopped, exit 130', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const cmd = script(dir, 'cmd.sh', serveCmd(dir));
    const ac = new AbortController();
    const running = worker(env.key, ['--environment', env.id, '--workdir', dir, '--concurrency', '2', '--on-work', cmd], ac.signal);
    const sids = await Promise.all(
      [1, 2].map((n) => toolSession(t.emu, env.id, `/tool bash {"command":"echo started; echo $$ > tool-${n}.pid; exec sleep 30"}`)),
    );
    const pids = await Promise.all([1, 2].map((n) => waitUntil(() => readPid(join(dir, `tool-${n}.pid`)), 'both tools to start', 15_000)));
    for (const sid of sids) await waitRow(t.emu, env.id, sid, (w) => w.status === 'active', 'both leases to be active');
    ac.abort('SIGINT');
    const r = await running;
    expect(r.code).toBe(130);
    for (const pid of pids) expect(gone(pid)).toBe(true);
    for (const sid of sids) {
      const [result] = await toolResults(t.emu, sid);
      expect(result.data.is_error).toBe(true);
      expect(resultText(result)).toMatch(/^started\n\n\[cancelled: the worker stopped this command\]$/);
      expect(await rowOf(t.emu, env.id, sid)).toMatchObject({ status: 'completed', stop_requested_at: expect.any(String) });
    }
    expect(r.stderr.match(/row stopped /g)).toHaveLength(2);
    expectNoSecrets(r.stdout + r.stderr, secrets(env.key));
  }, 40_000);

  it("copies CMD's output to the log line by line in linear time, cutting a 60 MB line at its bound", async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const cmd = script(dir, 'loud.sh', `head -c 60000000 /dev/zero | tr '\\0' a; echo; echo after the long line\n${serveCmd(dir)}`);
    const running = worker(env.key, ['--environment', env.id, '--workdir', dir, '--once', '--on-work', cmd]);
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo served"}');
    const r = await running;
    expect(r.code).toBe(0);
    expect((await toolResults(t.emu, sid)).map(resultText)).toEqual(['served\n']);
    const cut = r.stderr.split('\n').find((l) => l.includes('[line cut at'))!;
    expect(cut).toMatch(/^\[row=\S+ session=\S+\] a{65536} \[line cut at 65536 bytes; the rest of it is dropped\]$/);
    expect(r.stderr).toMatch(/\] after the long line\n/);
    expect(r.stderr.length).toBeLessThan(1024 * 1024);
  }, 40_000);

  it('a CMD that cannot be started exits 2 before the first poll', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    writeFileSync(join(dir, 'not-executable.sh'), '#!/bin/sh\n');
    for (const cmd of [join(dir, 'missing.sh'), join(dir, 'not-executable.sh'), 'no-such-program-anywhere']) {
      const before = await requestCount(t.emu);
      const r = await worker(env.key, ['--environment', env.id, '--workdir', dir, '--on-work', cmd]);
      expect(r.code, cmd).toBe(2);
      expect(r.stderr).toMatch(/^error: --on-work: .* (is not an executable file|is not an executable on PATH)\n$/);
      expect(await requestCount(t.emu)).toBe(before);
    }
  });
});

describe('svc worker serve', () => {
  const beats: NodeJS.Timeout[] = [];
  afterAll(() => beats.forEach(clearInterval));
  function serve(handoff: object, dir: string): { exited: Promise<{ code: number | null; stderr: string }>; closeInput(): void } {
    const child = spawn(process.execPath, [built.bin, 'worker', 'serve', '--workdir', dir], {
      env: { SVC_BASE_URL: t.emu.url, SVC_CONFIG_DIR: tempConfigDir(), PATH: process.env.PATH },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.stdin.write(JSON.stringify(handoff) + '\n');
    return { exited: new Promise((r) => child.once('exit', (code) => r({ code, stderr }))), closeInput: () => child.stdin.end() };
  }

  /**
   * Claims the session's row as a worker would, returning the row and its session work token, and keeps its lease
   * as the worker would (heartbeats until the test file ends): a slow start of `serve` must not lose the row.
   */
  async function claim(envId: string, key: string, sid: string) {
    const polled = await call(t.emu, 'GET', `/v1/environments/${envId}/work/poll?block_ms=5000`, { headers: { ...bearer(key), 'svc-worker-id': 'test' } });
    const { secret, ...row } = polled.body.items[0];
    expect(row.session_id).toBe(sid);
    const token = decodeSecret(secret).sessions_token;
    expect(
      (await call(t.emu, 'POST', `/v1/environments/${envId}/work/${row.id}/ack`, { body: { generation: row.generation }, headers: bearer(token) })).status,
    ).toBe(200);
    const beat = setInterval(
      () =>
        void call(t.emu, 'POST', `/v1/environments/${envId}/work/${row.id}/heartbeat`, { body: { generation: row.generation }, headers: bearer(token) }).catch(
          () => {},
        ),
      300,
    );
    beat.unref();
    beats.push(beat);
    return { row, token };
  }

  it('exits 14 when the session token is refused (the row was re-queued), saying so in one line', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo never"}');
    const { row } = await claim(env.id, env.key, sid);
    const s = serve(
      { type: 'svc.work_handoff', row, sessions_token: 'st_revoked_or_never_issued', base_url: t.emu.url, api_version: '2026-09-01-beta', max_idle_ms: 0 },
      workdir(),
    );
    const r = await s.exited;
    expect(r.code).toBe(14);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(/^error: the row is no longer this worker's: the session refused its work token/);
    expect(await toolResults(t.emu, sid)).toEqual([]);
  }, 20_000);

  it('exits 14 without writing anything when its input closes (the worker that started it is gone)', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo $$ > tool.pid; exec sleep 30"}');
    const { row, token } = await claim(env.id, env.key, sid);
    const s = serve({ type: 'svc.work_handoff', row, sessions_token: token, base_url: t.emu.url, api_version: '2026-09-01-beta', max_idle_ms: 0 }, dir);
    const pid = await waitUntil(() => readPid(join(dir, 'tool.pid')), 'the tool to start', 15_000);
    s.closeInput();
    const r = await s.exited;
    expect(r.code).toBe(14);
    expect(r.stderr).toMatch(/standard input closed/);
    await waitUntil(() => gone(pid), 'the tool to be killed');
    expect(await toolResults(t.emu, sid)).toEqual([]);
    expect(r.stderr).not.toContain(token);
  }, 20_000);

  it('refuses input that is not a hand-off with exit 2, quoting none of it', async () => {
    const s = serve({ sessions_token: 'st_secret_value' } as object, workdir());
    const r = await s.exited;
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: the hand-off on standard input lacks row.id, row.session_id, row.environment_id or sessions_token\n');
  });
});
