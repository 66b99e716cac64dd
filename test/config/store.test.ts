// The config store is conf, wrapped: what the wrapper promises beyond conf, through svc's own commands.
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svc, tempConfigDir } from '../helpers/cli';

const KEY = 'sk_test_store_0123456789';
const setKey = (dir: string) => svc(['config', 'set', 'api_key', '-'], { env: { SVC_CONFIG_DIR: dir }, stdin: `${KEY}\n` });
const configIn = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

describe('reading the config', () => {
  it('a command that only reads the config creates no config folder', async () => {
    const dir = join(tempConfigDir(), 'missing', 'svc');
    const r = await svc(['config', 'get', 'output'], { env: { SVC_CONFIG_DIR: dir } });
    expect(r.stderr).toBe('error: output is not set in profile default\n');
    expect(r.code).toBe(2);
    expect(existsSync(join(dir, '..'))).toBe(false);
  });

  it('a read leaves the file as it was: same file, same bytes, same time', async () => {
    const dir = tempConfigDir();
    const text = '{"profiles":{"default":{"output":"yaml"}},"kept":1}';
    writeFileSync(join(dir, 'config.json'), text, { mode: 0o600 });
    const before = statSync(join(dir, 'config.json'));
    const r = await svc(['config', 'get', 'output'], { env: { SVC_CONFIG_DIR: dir } });
    expect(r.stdout).toBe('yaml\n');
    const after = statSync(join(dir, 'config.json'));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(text);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});

describe('writing the config', () => {
  it('writes the same JSON shape as before conf: tab-indented, current_profile and profiles, file 0600', async () => {
    const dir = tempConfigDir();
    expect((await setKey(dir)).code).toBe(0);
    expect((await svc(['--profile', 'ci', 'config', 'set', 'output', 'json'], { env: { SVC_CONFIG_DIR: dir } })).code).toBe(0);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(
      JSON.stringify({ profiles: { default: { api_key: KEY }, ci: { output: 'json' } } }, null, '\t'),
    );
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('an existing config file readable by others (0644) is 0600 after a write', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles":{}}');
    chmodSync(join(dir, 'config.json'), 0o644);
    expect((await setKey(dir)).code).toBe(0);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(configIn(dir).profiles.default.api_key).toBe(KEY);
  });

  it('a corrupt config file is exit 2 naming it on a write too, and keeps its bytes', async () => {
    const dir = tempConfigDir();
    const text = `{"profiles": {"default": {"api_key": "${KEY}"}`;
    writeFileSync(join(dir, 'config.json'), text, { mode: 0o600 });
    const r = await svc(['config', 'set', 'output', 'json'], { env: { SVC_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: config file ${join(dir, 'config.json')} is not valid JSON (unexpected end of input at line 1, column ${text.length + 1}); fix or remove it\n`,
    );
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(text);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('a temp file left by a killed writer is removed by the next write, whichever svc named it; other files stay', async () => {
    const dir = tempConfigDir();
    // atomically's name (conf's writer), and svc's own before conf.
    for (const name of ['config.json.tmp-5200123456abc0de', 'config.json.99999999-deadbeef.tmp', 'config.json.tmp-notes', 'other.json.tmp-5200123456abc0de'])
      writeFileSync(join(dir, name), '{}');
    expect((await svc(['config', 'set', 'output', 'json'], { env: { SVC_CONFIG_DIR: dir } })).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'config.json.tmp-notes', 'other.json.tmp-5200123456abc0de']);
  });
});

describe('a config file that is a link', () => {
  it('into a private folder: read and written through the link, which stays a link', async () => {
    const dir = tempConfigDir();
    const dotfiles = tempConfigDir();
    writeFileSync(join(dotfiles, 'svc.json'), '{"profiles":{"default":{"output":"yaml"}}}', { mode: 0o600 });
    symlinkSync(join(dotfiles, 'svc.json'), join(dir, 'config.json'));
    expect((await svc(['config', 'get', 'output'], { env: { SVC_CONFIG_DIR: dir } })).stdout).toBe('yaml\n');
    expect((await setKey(dir)).code).toBe(0);
    expect(lstatSync(join(dir, 'config.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dotfiles, 'svc.json'), 'utf8')).profiles.default).toEqual({ output: 'yaml', api_key: KEY });
    expect(statSync(join(dotfiles, 'svc.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dotfiles)).toEqual(['svc.json']);
  });

  it('into a folder others can write to: exit 2 naming that folder, for reads and writes, and nothing is written there', async () => {
    const dir = tempConfigDir();
    const shared = join(tempConfigDir(), 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    writeFileSync(join(shared, 'config.json'), '{"profiles":{}}', { mode: 0o600 });
    symlinkSync(join(shared, 'config.json'), join(dir, 'config.json'));
    const expected = `error: config folder ${shared} is writable by others (mode 1777); make it private (chmod 700 ${shared})\n`;
    const set = await setKey(dir);
    expect(set.stderr).toBe(expected);
    expect(set.code).toBe(2);
    expect(readFileSync(join(shared, 'config.json'), 'utf8')).toBe('{"profiles":{}}');
    expect(readdirSync(shared)).toEqual(['config.json']);
    const read = await svc(['agents', 'list'], { env: { SVC_CONFIG_DIR: dir, SVC_API_KEY: 'k' } });
    expect(read.stderr).toBe(expected);
    expect(read.code).toBe(2);
  });
});
