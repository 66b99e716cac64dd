// Rules proved here: R-WORK-8, R-WORK-11, R-WORK-16, R-WORK-18, R-WORK-19, R-WORK-20, R-WORK-30, R-WORK-31
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { history, waitUntil } from '../helpers/sse';
import { readPid } from '../helpers/pid-file';
import {
  expectNoSecrets,
  gone,
  recordSessionTokens,
  resultText,
  rowOf,
  rowsOf,
  selfHostedEnvironment,
  toolResults,
  toolSession,
  waitRow,
  workdir,
} from './helpers';

const t = useEmulator({ leaseTtlMs: 1500, deliveryWindowMs: 3000, modelStepMs: 2 });

function worker(envKey: string, args: string[], signal?: AbortSignal) {
  const env = { SVC_BASE_URL: t.emu.url, SVC_ENVIRONMENT_KEY: envKey, SVC_CONFIG_DIR: tempConfigDir(), PATH: process.env.PATH };
  return svc(['worker', 'run', ...args], { env, signal });
}

const secrets = (envKey: string) => [envKey, ...recordSessionTokens(t.emu).tokens.map((x) => x.token)];

describe('svc worker run', () => {
  it('R-WORK-8 R-WORK-31 walks a session: tool_use → worker runs it → result → agent message → idle → row completed', async () => {
    recordSessionTokens(t.emu);
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const running = worker(env.key, ['--environment', env.id, '--workdir', dir, '--once', '--log-format', 'json']);
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo hello from $(basename $PWD)"}');
    const r = await running;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const h = await history(t.emu, `/v1/sessions/${sid}`);
    const order = ['user.message', 'agent.tool_use', 'user.tool_result', 'agent.tool_result', 'agent.message'].map((ty) => h.findIndex((e) => e.type === ty));
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]))).toBe(true);
    const use = h.find((e) => e.type === 'agent.tool_use');
    const result = h.find((e) => e.type === 'user.tool_result');
    expect(result.data).toEqual({ event_id: use.id, content: [{ type: 'text', text: `hello from ${dir.split('/').pop()}\n` }] });
    expect(h.find((e) => e.type === 'agent.message').data.content[0].text).toBe('Tool bash finished.');
    expect(h.at(-1)).toMatchObject({ type: 'session.status', data: { status: 'idle' } });
    expect(await rowOf(t.emu, env.id, sid)).toMatchObject({ status: 'completed', generation: 1 });
    const lines = r.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining([
        'worker started',
        'row claimed',
        'row acknowledged',
        'tool started',
        'tool finished',
        'tool result written',
        'row completed',
        'worker stopped',
      ]),
    );
    expect(lines.find((l) => l.msg === 'row claimed')).toMatchObject({ row: expect.any(String), session: sid, generation: 1 });
    expectNoSecrets(r.stdout + r.stderr, secrets(env.key));
  });

  it('R-WORK-16 R-WORK-18 R-WORK-20 abandons a row on 412: its tool is killed, nothing is written, and the re-queued row is served afresh', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const running = worker(env.key, ['--environment', env.id, '--workdir', dir, '--once']);
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"if [ -e pid ]; then echo second run; else echo $$ > pid; exec sleep 30; fi"}');
    const pid = await waitUntil(() => readPid(join(dir, 'pid')), 'the first run to start');
    const row = await waitRow(t.emu, env.id, sid, (w) => w.status === 'active', 'the lease to be active');
    // The platform moves the generation on while the worker still holds its old one: its next heartbeat is stale.
    const rows = t.emu.collection<any>('work_rows', 'work', 'work row');
    rows.touch(rows.get(row.id), { generation: row.generation + 1 });
    await waitUntil(() => gone(pid), 'the abandoned tool to be killed');
    expect(await toolResults(t.emu, sid)).toEqual([]);
    const r = await running;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/lease lost; abandoning the row .*412 stale generation/);
    expect(r.stderr).toMatch(/tool result dropped .*reason="lease lost"/);
    const results = await toolResults(t.emu, sid);
    expect(results.map(resultText)).toEqual(['second run\n']);
    expect(await rowOf(t.emu, env.id, sid)).toMatchObject({ status: 'completed', generation: 3 });
    expectNoSecrets(r.stdout + r.stderr, secrets(env.key));
  });

  it('R-WORK-30 on Ctrl-C mid-tool cancels the tool, writes its result back, stops the row and exits 130', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const ac = new AbortController();
    const running = worker(env.key, ['--environment', env.id, '--workdir', dir], ac.signal);
    const sid = await toolSession(t.emu, env.id, '/tool bash {"command":"echo started; echo $$ > pid; exec sleep 30"}');
    const pid = await waitUntil(() => readPid(join(dir, 'pid')), 'the tool to start');
    await waitRow(t.emu, env.id, sid, (w) => w.status === 'active', 'the lease to be active');
    ac.abort('SIGINT');
    const r = await running;
    expect(r.code).toBe(130);
    await waitUntil(() => gone(pid), 'the cancelled tool to be gone');
    const [result] = await toolResults(t.emu, sid);
    expect(result.data.is_error).toBe(true);
    expect(resultText(result)).toMatch(/^started\n\n\[cancelled: the worker stopped this command\]$/);
    const row = await rowOf(t.emu, env.id, sid);
    expect(row).toMatchObject({ status: 'completed', stop_requested_at: expect.any(String) });
    expect(r.stderr).toContain('shutting down');
    expect(r.stderr).toMatch(/row stopped .*row=/);
    expect(r.stderr).toMatch(/worker stopped/);
    expect(r.stderr.trim().split('\n').at(-1)).toBe('error: interrupted');
    expectNoSecrets(r.stdout + r.stderr, secrets(env.key));
  });

  it('--concurrency 4 serves 4 sessions at once', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const ac = new AbortController();
    const running = worker(env.key, ['--environment', env.id, '--workdir', dir, '--concurrency', '4'], ac.signal);
    // Each call waits until all four have started: served one at a time, each would time out instead.
    const wait = (n: number) =>
      `/tool bash {"command":"touch started-${n}; for i in $(seq 200); do [ $(ls started-* | wc -l) -ge 4 ] && echo all four && exit 0; sleep 0.02; done; exit 1","timeout":8000}`;
    const sids = await Promise.all([1, 2, 3, 4].map((n) => toolSession(t.emu, env.id, wait(n))));
    for (const sid of sids) await waitRow(t.emu, env.id, sid, (w) => w.status === 'completed', 'every row to complete');
    ac.abort();
    const r = await running;
    expect(r.code).toBe(0);
    for (const sid of sids) {
      const [result] = await toolResults(t.emu, sid);
      expect(result.data.is_error).toBeUndefined();
      expect(resultText(result)).toBe('all four\n');
    }
    expect(new Set((await rowsOf(t.emu, env.id)).map((w) => w.status))).toEqual(new Set(['completed']));
    expectNoSecrets(r.stdout + r.stderr, secrets(env.key));
  });

  it('answers a path escape with an error result and keeps serving', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    writeFileSync(join(dir, '..', 'svc-worker-outside.txt'), 'outside\n');
    const ac = new AbortController();
    const running = worker(env.key, ['--environment', env.id, '--workdir', dir], ac.signal);
    const escape = await toolSession(t.emu, env.id, '/tool read {"path":"../svc-worker-outside.txt"}');
    await waitRow(t.emu, env.id, escape, (w) => w.status === 'completed', 'the first row to complete');
    const inside = await toolSession(t.emu, env.id, '/tool write {"path":"kept.txt","content":"still serving"}');
    await waitRow(t.emu, env.id, inside, (w) => w.status === 'completed', 'the second row to complete');
    ac.abort();
    const r = await running;
    expect(r.code).toBe(0);
    const [esc] = await toolResults(t.emu, escape);
    expect(esc.data.is_error).toBe(true);
    expect(resultText(esc)).toBe('read: ../svc-worker-outside.txt is outside the workdir');
    expect(existsSync(join(dir, 'kept.txt'))).toBe(true);
    expectNoSecrets(r.stdout + r.stderr, secrets(env.key));
  });

  it('answers an unknown tool name with an error result, not a crash', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const ac = new AbortController();
    const running = worker(env.key, ['--environment', env.id, '--workdir', workdir()], ac.signal);
    const sid = await toolSession(t.emu, env.id, '/tool teleport {"to":"mars"}');
    await waitRow(t.emu, env.id, sid, (w) => w.status === 'completed', 'the row to complete');
    ac.abort();
    const r = await running;
    expect(r.code).toBe(0);
    const [res] = await toolResults(t.emu, sid);
    expect(res.data.is_error).toBe(true);
    expect(resultText(res)).toMatch(/teleport/);
    expectNoSecrets(r.stdout + r.stderr, secrets(env.key));
  });
});

describe('svc worker run: over quota', () => {
  it('R-ERR-17 stops at once with exit 8 when the project is over quota, instead of polling on', async () => {
    const env = await selfHostedEnvironment(t.emu);
    await call(t.emu, 'POST', '/_emulator/faults', { body: { quota_every: 1 } });
    try {
      const r = await worker(env.key, ['--environment', env.id, '--workdir', workdir()]);
      expect(r.code).toBe(8);
      expect(r.stderr).toMatch(/exceeded_current_quota_error/);
      expect(r.stderr).not.toMatch(/backing off/);
    } finally {
      await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
    }
  });
});

describe('svc worker run: bad input', () => {
  // An unreachable base URL: any request would end in exit 10, so these exit codes prove none was sent.
  const offline = { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_ENVIRONMENT_KEY: 'ek_unused', SVC_CONFIG_DIR: tempConfigDir() };

  it('requires --environment (exit 2, one error line)', async () => {
    const r = await svc(['worker', 'run'], { env: offline });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: .*--environment/)]);
  });

  it('rejects a bad --concurrency, --log-format and --workdir with exit 2', async () => {
    for (const args of [
      ['--concurrency', '0'],
      ['--log-format', 'xml'],
      ['--workdir', '/nonexistent/dir'],
      ['--once', '--concurrency', '2'],
      ['--heartbeat-interval', 'soon'],
    ]) {
      const r = await svc(['worker', 'run', '--environment', 'env_1', ...args], { env: offline });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^error: /);
    }
  });

  it('without an environment key exits 4 before any request', async () => {
    const r = await svc(['worker', 'run', '--environment', 'env_1'], { env: { ...offline, SVC_ENVIRONMENT_KEY: undefined } });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe('error: no environment work key configured: set SVC_ENVIRONMENT_KEY or run `svc config set environment_key - < key.txt`\n');
  });
});

describe('svc worker run: a work key the service refuses', () => {
  it('is exit 4 saying the key came from SVC_ENVIRONMENT_KEY (or the profile), never showing it', async () => {
    const env = await selfHostedEnvironment(t.emu);
    const fromEnv = await worker('ek_not_a_real_key', ['--environment', env.id, '--once']);
    expect(fromEnv.code).toBe(4);
    expect(fromEnv.stderr.trim().split('\n').at(-1)).toMatch(
      /^error: the environment work key from SVC_ENVIRONMENT_KEY is not valid \(.*status=401\): set SVC_ENVIRONMENT_KEY to a work key of this environment$/,
    );
    expect(fromEnv.stderr).not.toContain('ek_not_a_real_key');
    const dir = tempConfigDir();
    expect((await svc(['config', 'set', 'environment_key', '-'], { env: { SVC_CONFIG_DIR: dir }, stdin: 'ek_profile_key_refused\n' })).code).toBe(0);
    const fromProfile = await svc(['worker', 'run', '--environment', env.id, '--once'], {
      env: { SVC_BASE_URL: t.emu.url, SVC_CONFIG_DIR: dir, PATH: process.env.PATH },
    });
    expect(fromProfile.code).toBe(4);
    expect(fromProfile.stderr).toMatch(
      /error: the environment work key from environment_key of profile "default" in .* is not valid .*: run `svc config set environment_key - < key.txt` with a work key of this environment\n$/,
    );
    expect(fromProfile.stderr).not.toContain('ek_profile_key_refused');
  });
});
