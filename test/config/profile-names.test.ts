import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svc, tempConfigDir } from '../helpers/cli';

/** Names every plain JS object answers to: a profile of that name must be a profile like any other. */
const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

const stored = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

describe('profiles named like what every object inherits', () => {
  it.each(NAMES)('config use %s is refused (exit 2) while no such profile exists, and nothing is saved', async (name) => {
    const dir = tempConfigDir();
    const r = await svc(['config', 'use', name], { env: { SVC_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no profile named "${name}"`);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it.each(NAMES)('config use %s is refused (exit 2) beside a config with profiles too, and the current profile is kept', async (name) => {
    const dir = tempConfigDir();
    const env = { SVC_CONFIG_DIR: dir };
    expect((await svc(['--profile', 'staging', 'config', 'set', 'base_url', 'http://staging.example'], { env })).code).toBe(0);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const r = await svc(['config', 'use', name], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no profile named "${name}"; known: staging`);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('config use default is taken even when no profile of that name was written (default always is one)', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles":{"staging":{}},"current_profile":"staging"}', { mode: 0o600 });
    expect((await svc(['config', 'use', 'default'], { env: { SVC_CONFIG_DIR: dir } })).code).toBe(0);
    expect(stored(dir).current_profile).toBe('default');
  });

  it.each(NAMES)('config set in profile %s stores it, get reads it back, use and profiles find it', async (name) => {
    const dir = tempConfigDir();
    const env = { SVC_CONFIG_DIR: dir };
    const set = await svc(['--profile', name, 'config', 'set', 'base_url', 'http://named.example'], { env });
    expect([set.code, set.stderr]).toEqual([0, `set base_url in profile ${name}\n`]);
    const file = stored(dir);
    expect(Object.keys(file.profiles)).toEqual([name]);
    expect(Object.getOwnPropertyDescriptor(file.profiles, name)?.value).toEqual({ base_url: 'http://named.example' });
    expect((await svc(['--profile', name, 'config', 'get', 'base_url'], { env })).stdout).toBe('http://named.example\n');
    expect((await svc(['config', 'use', name], { env })).code).toBe(0);
    expect(stored(dir).current_profile).toBe(name);
    expect((await svc(['config', 'get', 'base_url'], { env })).stdout).toBe('http://named.example\n');
    const profiles = JSON.parse((await svc(['config', 'profiles', '-o', 'json'], { env })).stdout);
    expect(profiles).toContainEqual({ name, current: true, base_url: 'http://named.example' });
  });

  it('a profile named toString that was never set has no settings: get is exit 2, not a function printed', async () => {
    const r = await svc(['--profile', 'toString', 'config', 'get', 'output'], { env: { SVC_CONFIG_DIR: tempConfigDir() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('output is not set in profile toString');
  });
});
