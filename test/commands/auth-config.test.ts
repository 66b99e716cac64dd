// Rules proved here: R-AUTH-1, R-WORK-11 (no secret in logs, by the same redaction), R-VERS-2
import { readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';

const t = useEmulator();

describe('svc auth', () => {
  it('login --with-token reads the key from stdin, verifies it, stores it with mode 0600 in a 0700 folder', async () => {
    const dir = join(tempConfigDir(), 'nested');
    const r = await svc(['auth', 'login', '--with-token', '--base-url', t.emu.url], { env: { SVC_CONFIG_DIR: dir }, stdin: `${t.emu.apiKey}\n` });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain(t.emu.apiKey);
    const file = join(dir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.api_key).toBe(t.emu.apiKey);
    const list = await svc(['agents', 'list'], { env: { SVC_CONFIG_DIR: dir } });
    expect(list.code).toBe(0);
  });

  it('login refuses a key the service rejects and saves nothing', async () => {
    const dir = tempConfigDir();
    const r = await svc(['auth', 'login', '--with-token'], { env: { SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url }, stdin: 'sk_bad\n' });
    expect(r.code).toBe(4);
    expect(() => statSync(join(dir, 'config.json'))).toThrow();
  });

  it('login without a terminal and without --with-token is a usage error, never a prompt', async () => {
    const r = await svc(['auth', 'login'], { env: { SVC_BASE_URL: t.emu.url } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--with-token');
  });

  it('status shows where the key comes from, masked to its last 4 characters', async () => {
    const r = await svc(['auth', 'status', '-o', 'json'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({ profile: 'default', api_key_source: 'env', valid: true, api_key: `****${t.emu.apiKey.slice(-4)}` });
    expect(r.stdout + r.stderr).not.toContain(t.emu.apiKey);
  });

  it('status exits 4 when no key is configured', async () => {
    const r = await svc(['auth', 'status'], { env: { SVC_BASE_URL: t.emu.url } });
    expect(r.code).toBe(4);
  });

  it('token prints the resolved key for scripts; logout removes the stored one', async () => {
    const dir = tempConfigDir();
    await svc(['auth', 'login', '--with-token'], { env: { SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url }, stdin: t.emu.apiKey });
    expect((await svc(['auth', 'token'], { env: { SVC_CONFIG_DIR: dir } })).stdout).toBe(`${t.emu.apiKey}\n`);
    expect((await svc(['auth', 'logout'], { env: { SVC_CONFIG_DIR: dir } })).code).toBe(0);
    expect((await svc(['auth', 'token'], { env: { SVC_CONFIG_DIR: dir } })).code).toBe(4);
  });
});

describe('--debug', () => {
  it('logs each request and response with attempt and request ID, never the key', async () => {
    const r = await svc(['agents', 'list', '--debug'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/debug: > GET http:\/\/127\.0\.0\.1:\d+\/v1\/agents attempt=1/);
    expect(r.stderr).toMatch(/debug: < 200 GET \/v1\/agents \d+ms request_id=req_/);
    expect(r.stderr).not.toContain(t.emu.apiKey);
    expect(r.stderr.toLowerCase()).not.toContain('bearer');
  });

  it('a network failure under --debug prints neither the key nor a stack trace', async () => {
    const r = await svc(['agents', 'get', 'x', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k_secret_value', '--debug', '--max-retries', '0'], {});
    expect(r.code).toBe(10);
    expect(r.stderr).not.toContain('k_secret_value');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('config', () => {
  it('a corrupt config file is a clear error naming it, exit 2, and the file is left untouched', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"profiles": {"default": ', { mode: 0o600 });
    for (const args of [
      ['agents', 'list'],
      ['config', 'set', 'output', 'json'],
      ['auth', 'logout'],
    ]) {
      const r = await svc(args, { env: { SVC_CONFIG_DIR: dir, SVC_API_KEY: 'k' } });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`error: config file ${file} is not valid JSON (${r.stderr.split('(')[1].split(')')[0]}); fix or remove it\n`);
      expect(readFileSync(file, 'utf8')).toBe('{"profiles": {"default": ');
    }
  });

  it('an unreadable config file is exit 2 naming the file', async () => {
    const dir = tempConfigDir();
    mkdirSync(join(dir, 'config.json'));
    const r = await svc(['agents', 'list'], { env: { SVC_CONFIG_DIR: dir, SVC_API_KEY: 'k' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(join(dir, 'config.json'));
  });

  it('precedence is flag > environment > profile > default', async () => {
    const dir = tempConfigDir();
    const run = (args: string[], env: Record<string, string> = {}) => svc([...args, 'config', 'list', '-o', 'json'], { env: { SVC_CONFIG_DIR: dir, ...env } });
    expect((await svc(['config', 'set', 'base_url', 'http://profile.example'], { env: { SVC_CONFIG_DIR: dir } })).code).toBe(0);
    const status = async (args: string[], env: Record<string, string> = {}) =>
      JSON.parse(
        (await svc([...args, 'auth', 'status', '-o', 'json'], { env: { SVC_CONFIG_DIR: dir, SVC_API_KEY: 'k', SVC_MAX_RETRIES: '0', ...env } })).stdout,
      );
    expect((await status([])).base_url).toBe('http://profile.example');
    expect((await status([], { SVC_BASE_URL: 'http://env.example' })).base_url).toBe('http://env.example');
    expect((await status(['--base-url', 'http://flag.example'], { SVC_BASE_URL: 'http://env.example' })).base_url).toBe('http://flag.example');
    const fresh = tempConfigDir();
    const d = JSON.parse((await svc(['auth', 'status', '-o', 'json'], { env: { SVC_CONFIG_DIR: fresh, SVC_API_KEY: 'k', SVC_MAX_RETRIES: '0' } })).stdout);
    expect(d).toMatchObject({ base_url: 'http://127.0.0.1:4010', base_url_source: 'default' });
    expect(JSON.parse((await run([])).stdout).base_url).toBe('http://profile.example');
  });

  it('profiles: set in a named profile, use it, list them', async () => {
    const dir = tempConfigDir();
    const env = { SVC_CONFIG_DIR: dir };
    expect((await svc(['--profile', 'staging', 'config', 'set', 'output', 'yaml'], { env })).code).toBe(0);
    expect((await svc(['config', 'use', 'nope'], { env })).code).toBe(2);
    expect((await svc(['config', 'use', 'staging'], { env })).code).toBe(0);
    expect((await svc(['config', 'get', 'output'], { env })).stdout).toBe('yaml\n');
    const profiles = JSON.parse((await svc(['config', 'profiles', '-o', 'json'], { env })).stdout);
    expect(profiles).toEqual([
      { name: 'default', current: false, base_url: null },
      { name: 'staging', current: true, base_url: null },
    ]);
  });

  it('a secret setting is read from stdin, never argv, and shown masked', async () => {
    const dir = tempConfigDir();
    const env = { SVC_CONFIG_DIR: dir };
    expect((await svc(['config', 'set', 'environment_key', 'ek_on_argv'], { env })).code).toBe(2);
    expect((await svc(['config', 'set', 'environment_key', '-'], { env, stdin: 'ek_from_stdin_1234\n' })).code).toBe(0);
    expect((await svc(['config', 'get', 'environment_key'], { env })).stdout).toBe('****1234\n');
  });

  it('an invalid output format in the profile is a usage error naming it', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { output: 'xml' } } }));
    const r = await svc(['agents', 'list'], { env: { SVC_CONFIG_DIR: dir, SVC_API_KEY: 'k' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("profile's output setting");
  });
});

describe('svc auth login says what it stored', () => {
  it('the key masked to its last 4 and the base URL, each with where it came from; SVC_BASE_URL is named but not stored unasked', async () => {
    const dir = tempConfigDir();
    const r = await svc(['auth', 'login', '--with-token'], { env: { SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url }, stdin: `${t.emu.apiKey}\n` });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`profile default in ${join(dir, 'config.json')}`);
    expect(r.stderr).toContain(`api_key   ****${t.emu.apiKey.slice(-4)} (from standard input)`);
    expect(r.stderr).toContain(`base_url  not stored: ${t.emu.url} came from SVC_BASE_URL (give --base-url ${t.emu.url} to store it)`);
    expect(r.stderr).not.toContain(t.emu.apiKey);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default.base_url).toBeUndefined();
  });

  it('a base URL given by --base-url is named as coming from the flag', async () => {
    const r = await svc(['auth', 'login', '--with-token', '--base-url', t.emu.url], { env: { SVC_CONFIG_DIR: tempConfigDir() }, stdin: t.emu.apiKey });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`base_url  ${t.emu.url} (from --base-url)`);
  });

  it('a base URL already in the profile is left as it is, and the message says so', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { base_url: t.emu.url } } }), { mode: 0o600 });
    const r = await svc(['auth', 'login', '--with-token'], { env: { SVC_CONFIG_DIR: dir }, stdin: t.emu.apiKey });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`base_url  ${t.emu.url} (already in the profile, unchanged)`);
  });
});
