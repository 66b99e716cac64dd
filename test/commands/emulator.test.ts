import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svc } from '../helpers/cli';
import { waitUntil } from '../helpers/sse';

describe('svc emulator --exports-file', () => {
  it('writes the two export lines to the file once listening (mode 0600), and removes it on stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-emu-'));
    const file = join(dir, 'emulator.env');
    const stop = new AbortController();
    const running = svc(['emulator', '--port', '0', '--exports-file', 'emulator.env'], { cwd: dir, signal: stop.signal });
    const text = await waitUntil(() => existsSync(file) && readFileSync(file, 'utf8'), 'the env file', 20_000);
    const vars = Object.fromEntries([...text.matchAll(/^export (SVC_BASE_URL|SVC_API_KEY)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
    expect(Object.keys(vars).sort()).toEqual(['SVC_API_KEY', 'SVC_BASE_URL']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The file is all a shell needs: the emulator answers with those settings.
    const res = await fetch(`${vars.SVC_BASE_URL}/v1/agents`, {
      headers: { authorization: `Bearer ${vars.SVC_API_KEY}`, 'svc-api-version': '2026-09-01-beta' },
    });
    expect(res.status).toBe(200);
    stop.abort();
    const r = await running;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(text);
    expect(existsSync(file)).toBe(false);
  });

  it('an env file that cannot be written is a usage error (exit 2) naming the option', async () => {
    const r = await svc(['emulator', '--port', '0', '--exports-file', join(tmpdir(), 'no-such-dir-svc', 'x.env')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --exports-file: cannot write .*x\.env: ENOENT/);
  });
});

/** Starts `svc emulator` with `args` in a fresh folder, makes one request through it, then stops it. */
async function oneRequest(args: string[]): Promise<{ dir: string; stdout: string; stderr: string; code: number; exports: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-emu-log-'));
  const stop = new AbortController();
  const running = svc(['emulator', '--port', '0', '--exports-file', 'emulator.env', ...args], { cwd: dir, signal: stop.signal });
  const text = await waitUntil(() => existsSync(join(dir, 'emulator.env')) && readFileSync(join(dir, 'emulator.env'), 'utf8'), 'the env file', 20_000);
  const url = /SVC_BASE_URL=(\S+)/.exec(text)![1];
  const key = /SVC_API_KEY=(\S+)/.exec(text)![1];
  const res = await fetch(`${url}/v1/agents`, { headers: { authorization: `Bearer ${key}`, 'svc-api-version': '2026-09-01-beta' } });
  expect(res.status).toBe(200);
  stop.abort();
  const r = await running;
  return { dir, ...r, exports: text };
}

describe('svc emulator --log / --quiet', () => {
  it('--log FILE appends the request log to FILE; stdout keeps only the export lines, stderr only the start and stop', async () => {
    const r = await oneRequest(['--log', 'emulator.log']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(r.exports);
    const log = readFileSync(join(r.dir, 'emulator.log'), 'utf8');
    expect(log).toMatch(/GET \/v1\/agents 200 /);
    expect(statSync(join(r.dir, 'emulator.log')).mode & 0o777).toBe(0o600);
    expect(r.stderr).not.toMatch(/GET \/v1\/agents/);
    expect(r.stderr).toMatch(/^emulator: listening on http:\/\/127\.0\.0\.1:\d+/m);
    expect(r.stderr).toMatch(/^emulator: stopped$/m);
  });

  it('--quiet drops the request log and says nothing on stderr but the start and stop', async () => {
    const r = await oneRequest(['--quiet']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(r.exports);
    expect(r.stderr).not.toMatch(/GET \/v1\/agents/);
    expect(r.stderr).toMatch(/^emulator: listening on http:\/\/127\.0\.0\.1:\d+ .*\nemulator: stopped\n$/);
  });

  it("--state FILE is written in the command's folder, as --log and --exports-file are", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-emu-state-'));
    const stop = new AbortController();
    const running = svc(['emulator', '--port', '0', '--quiet', '--exports-file', 'emulator.env', '--state', 'emu.json'], { cwd: dir, signal: stop.signal });
    const text = await waitUntil(() => existsSync(join(dir, 'emulator.env')) && readFileSync(join(dir, 'emulator.env'), 'utf8'), 'the env file', 20_000);
    const url = /SVC_BASE_URL=(\S+)/.exec(text)![1];
    const key = /SVC_API_KEY=(\S+)/.exec(text)![1];
    const res = await fetch(`${url}/v1/agents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'svc-api-version': '2026-09-01-beta', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'kept', model: 'scripted-1' }),
    });
    expect(res.status).toBe(201);
    stop.abort();
    expect((await running).code).toBe(0);
    expect(readFileSync(join(dir, 'emu.json'), 'utf8')).toContain('"kept"');
  });

  it('without either, the request log goes to stderr, and the start-up line says how to stop a background job (kill %1)', async () => {
    const r = await oneRequest([]);
    expect(r.stderr).toMatch(/GET \/v1\/agents 200 /);
    expect(r.stderr).toMatch(/listening on .*Ctrl-C stops it, or kill %1/);
  });

  it('--log and --quiet together, or a --log path that cannot be written, are usage errors (exit 2) before it listens', async () => {
    const both = await svc(['emulator', '--port', '0', '--log', 'x.log', '--quiet'], { cwd: mkdtempSync(join(tmpdir(), 'svc-emu-log-')) });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^error: --log and --quiet cannot be used together/);
    expect(both.stdout).toBe('');
    const bad = await svc(['emulator', '--port', '0', '--log', join(tmpdir(), 'no-such-dir-svc', 'x.log')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --log: cannot write .*x\.log: ENOENT/);
    expect(bad.stdout).toBe('');
  });
});

describe('svc emulator --webhook-url', () => {
  it('a URL that is not http or https is a usage error (exit 2) before it listens', async () => {
    // Told to stop at once: an emulator that got past the check would print its export lines and exit 0.
    const r = await svc(['emulator', '--port', '0', '--webhook-url', 'hooks.example/in'], { signal: AbortSignal.abort() });
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe('error: --webhook-url takes an http:// or https:// URL (got "hooks.example/in")\n');
  });
});
