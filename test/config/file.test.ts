// Issue 13: a mistyped config, a config folder that cannot be made, parse errors that quote no key.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svc, tempConfigDir } from '../helpers/cli';

const withConfig = (data: string): { dir: string; file: string } => {
  const dir = tempConfigDir();
  const file = join(dir, 'config.json');
  writeFileSync(file, data, { mode: 0o600 });
  return { dir, file };
};

describe('a mistyped config is exit 2 naming the file and the key', () => {
  const cases: [string, unknown, string][] = [
    ['base_url', 42, 'a number'],
    ['api_key', {}, 'an object'],
    ['environment_key', [], 'an array'],
    ['output', null, 'null'],
  ];
  for (const [key, value, kind] of cases) {
    it(`${key}: ${JSON.stringify(value)}`, async () => {
      const { dir, file } = withConfig(JSON.stringify({ profiles: { default: { [key]: value } } }));
      const r = await svc(['agents', 'list'], { env: { SVC_CONFIG_DIR: dir, SVC_API_KEY: 'k' } });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`error: config file ${file}: ${key} of profile "default" is ${kind}, not a string; fix or remove it\n`);
    });
  }
});

describe('a config file that is not JSON', () => {
  it('is reported by line and column, never quoting it (it holds the API key)', async () => {
    const key = 'sk_live_0123456789abcdef';
    const { dir, file } = withConfig(`{\n\t"profiles": {\n\t\t"default": {\n\t\t\t"api_key": ${key}\n\t\t}\n\t}\n}\n`);
    const r = await svc(['agents', 'list'], { env: { SVC_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: config file ${file} is not valid JSON (expected a value at line 4, column 15); fix or remove it\n`);
    for (let i = 0; i + 4 <= key.length; i++) expect(r.stderr).not.toContain(key.slice(i, i + 4));
  });
});

describe('the config folder', () => {
  it('a config folder below a file is exit 2 naming it', async () => {
    const { dir } = withConfig('{}');
    const below = join(dir, 'config.json', 'svc');
    const r = await svc(['config', 'set', 'output', 'json'], { env: { SVC_CONFIG_DIR: below } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(below);
  });

  it('each missing level is created 0700, and an existing folder keeps its mode', async () => {
    const parent = join(tempConfigDir(), 'shared');
    mkdirSync(parent, { mode: 0o755 });
    const dir = join(parent, 'a', 'b');
    expect((await svc(['config', 'set', 'output', 'json'], { env: { SVC_CONFIG_DIR: dir } })).code).toBe(0);
    expect(statSync(join(parent, 'a')).mode & 0o777).toBe(0o700);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(parent).mode & 0o777).toBe(0o755);
    expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
  });
});
