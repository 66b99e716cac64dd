// Issue 13 "Malformed URLs and header values", issue 17 (no scheme, a pasted "…" in a key).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();

/** Runs with no retry waits: before validation, each of these retried and exited 10. */
const run = (args: string[], env: Record<string, string | undefined>) => svc(args, { env: { SVC_MAX_RETRIES: '3', ...env }, sleep: async () => undefined });

describe('the base URL is checked before any request', () => {
  const cases: [string, RegExp][] = [
    ['127.0.0.1:4010', /has no scheme: use an http\(s\) URL such as http:\/\/127\.0\.0\.1:4010$/],
    ['localhost:4010', /has no scheme: use an http\(s\) URL such as http:\/\/localhost:4010$/],
    ['ftp://example.com', /is not an http\(s\) URL$/],
    ['http://127.0.0.1:99999', /is not a valid URL \(check the host and the port, 1-65535\)$/],
    ['http://[::1', /is not a valid URL/],
  ];
  for (const [url, reason] of cases) {
    it(`--base-url ${url} is exit 2 naming the flag`, async () => {
      const r = await run(['agents', 'list', '--base-url', url], { SVC_API_KEY: t.emu.apiKey });
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')).toHaveLength(2);
      expect(r.stderr.startsWith(`error: --base-url ${JSON.stringify(url)} `)).toBe(true);
      expect(r.stderr.trim()).toMatch(reason);
    });
  }

  it('SVC_BASE_URL=garbage is exit 2 naming the variable', async () => {
    const r = await run(['agents', 'list'], { SVC_BASE_URL: 'garbage', SVC_API_KEY: 'k' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: SVC_BASE_URL "garbage" has no scheme: use an http(s) URL such as http://garbage\n');
  });

  it('a bad base_url in the profile is exit 2 naming the profile and the file', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { base_url: 'localhost:4010' } } }));
    const r = await run(['agents', 'list'], { SVC_CONFIG_DIR: dir, SVC_API_KEY: 'k' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: base_url of profile "default" in ${join(dir, 'config.json')} "localhost:4010" has no scheme: use an http(s) URL such as http://localhost:4010\n`,
    );
  });

  it('a bad profile base_url can still be replaced with config set', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { base_url: 'garbage' } } }));
    expect((await run(['config', 'set', 'base_url', t.emu.url], { SVC_CONFIG_DIR: dir })).code).toBe(0);
    expect((await run(['agents', 'list'], { SVC_CONFIG_DIR: dir, SVC_API_KEY: t.emu.apiKey })).code).toBe(0);
  });

  it('config set base_url refuses a URL that would not work', async () => {
    const r = await run(['config', 'set', 'base_url', 'http://[::1'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: base_url "http:\/\/\[::1" is not a valid URL/);
  });

  it('a password in a bad URL is masked', async () => {
    const r = await run(['agents', 'list', '--base-url', 'http://user:hunter2@127.0.0.1:99999'], { SVC_API_KEY: 'k' });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('hunter2');
    expect(r.stderr).toContain('user:***@');
  });
});

describe('header values are checked before any request', () => {
  it('a line break in SVC_API_KEY is exit 4, names the variable and never prints the key', async () => {
    const before = await requestCount(t.emu);
    const r = await run(['agents', 'list'], { SVC_BASE_URL: t.emu.url, SVC_API_KEY: `${t.emu.apiKey}\nX-Evil: 1` });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe('error: the API key from SVC_API_KEY is malformed: it holds a line break, which cannot be sent in an HTTP header\n');
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('a pasted "…" in the key is exit 4 (issue 17), from the flag or the profile', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { api_key: 'sk_live_abc…' } } }));
    const fromProfile = await run(['agents', 'list'], { SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url });
    expect(fromProfile.code).toBe(4);
    expect(fromProfile.stderr).toBe(
      `error: the API key from api_key of profile "default" in ${join(dir, 'config.json')} is malformed: it holds a non-ASCII character (a pasted "…"?), which cannot be sent in an HTTP header\n`,
    );
    const fromFlag = await run(['agents', 'list', '--api-key', 'sk_live_abc…'], { SVC_BASE_URL: t.emu.url });
    expect(fromFlag.code).toBe(4);
    expect(fromFlag.stderr).toContain('the API key from --api-key is malformed');
    expect(fromFlag.stderr + fromProfile.stderr).not.toContain('sk_live_abc');
  });

  it('auth login refuses a malformed key with exit 4 and stores nothing', async () => {
    const dir = tempConfigDir();
    const bad = await svc(['auth', 'login', '--with-token'], { env: { SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url }, stdin: 'sk_live…\n' });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain('the API key from standard input is malformed');
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('config set refuses a malformed key on standard input with exit 4 and stores nothing', async () => {
    const dir = tempConfigDir();
    const r = await svc(['config', 'set', 'environment_key', '-'], { env: { SVC_CONFIG_DIR: dir }, stdin: 'ek_live…\n' });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      'error: the environment key from standard input is malformed: it holds a non-ASCII character (a pasted "…"?), which cannot be sent in an HTTP header\n',
    );
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('a malformed SVC_ENVIRONMENT_KEY is exit 4 naming it', async () => {
    const r = await run(['work', 'poll', 'env_x'], { SVC_BASE_URL: t.emu.url, SVC_ENVIRONMENT_KEY: 'ek\r\nx' });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe('error: the environment key from SVC_ENVIRONMENT_KEY is malformed: it holds a line break, which cannot be sent in an HTTP header\n');
  });

  it('a newline in SVC_API_VERSION is exit 2 naming it', async () => {
    const r = await run(['agents', 'list'], { ...emuEnv(t.emu), SVC_API_VERSION: '2026-09-01-beta\nX: y' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: SVC_API_VERSION "2026-09-01-beta\\nX: y" holds a character that cannot be sent in an HTTP header\n');
  });
});
