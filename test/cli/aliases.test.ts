import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandAlias, splitWords } from '../../src/cli/aliases';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';

const t = useEmulator();

describe('svc alias', () => {
  it('sets, lists and deletes an alias kept in the config for every profile', async () => {
    const dir = tempConfigDir();
    const env = { SVC_CONFIG_DIR: dir };
    expect((await svc(['alias', 'set', 'mine', 'agents list --limit 5'], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).aliases).toEqual({ mine: 'agents list --limit 5' });
    const listed = await svc(['--profile', 'other', 'alias', 'list', '-o', 'json'], { env });
    expect(JSON.parse(listed.stdout)).toEqual([{ name: 'mine', expansion: 'agents list --limit 5' }]);
    expect((await svc(['alias', 'delete', 'mine'], { env })).code).toBe(0);
    expect(JSON.parse((await svc(['alias', 'list', '-o', 'json'], { env })).stdout)).toEqual([]);
    const missing = await svc(['alias', 'delete', 'mine'], { env });
    expect([missing.code, missing.stderr]).toEqual([2, 'error: no alias named "mine" (svc alias list lists them)\n']);
  });

  it('refuses to shadow a command or another alias, a name that is no word, and an expansion that is no command (exit 2)', async () => {
    const env = { SVC_CONFIG_DIR: tempConfigDir() };
    await svc(['alias', 'set', 'mine', 'agents list'], { env });
    const cases: [string, string, RegExp][] = [
      ['agents', 'sessions list', /"agents" is a svc command/],
      ['help', 'sessions list', /"help" is a svc command/],
      ['mine', 'sessions list', /"mine" is already an alias/],
      ['__proto__', 'sessions list', /invalid alias name/],
      ['-x', 'sessions list', /invalid alias name|unknown option/],
      ['other', 'mine', /must start with a svc command, not "mine"/],
      ['other', "agents list 'open", /unclosed '/],
      ['other', '!', /needs a command after the !/],
      ['other', 'agents list --api-key sk-secret-in-alias', /may not hold --api-key/],
      ['other', '!svc agents list --api-key=sk-secret-in-alias', /may not hold --api-key/],
    ];
    for (const [name, expansion, message] of cases) {
      const r = await svc(['alias', 'set', name, expansion], { env });
      expect(r.code, name).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain('sk-secret');
    }
    expect(JSON.parse((await svc(['alias', 'list', '-o', 'json'], { env })).stdout)).toEqual([{ name: 'mine', expansion: 'agents list' }]);
  });

  it('alias set over an existing alias is exit 2 naming --clobber; with --clobber it replaces it and says what it was (as gh)', async () => {
    const dir = tempConfigDir();
    const env = { SVC_CONFIG_DIR: dir };
    await svc(['alias', 'set', 'mine', 'agents list'], { env });
    const refused = await svc(['alias', 'set', 'mine', 'sessions list'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('replace it with --clobber');
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).aliases).toEqual({ mine: 'agents list' });
    const clobbered = await svc(['alias', 'set', 'mine', 'sessions list', '--clobber'], { env });
    expect(clobbered.code).toBe(0);
    expect(clobbered.stderr).toContain('alias mine replaced (was agents list)');
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).aliases).toEqual({ mine: 'sessions list' });
    // --clobber replaces an alias; it never lets one shadow a command.
    expect((await svc(['alias', 'set', 'agents', 'sessions list', '--clobber'], { env })).code).toBe(2);
  });

  it('keeps a config alias named __proto__ as a plain entry, never the prototype', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles":{},"aliases":{"__proto__":"agents list","ok":"agents list"}}', { mode: 0o600 });
    const r = await svc(['alias', 'list', '-o', 'json'], { env: { SVC_CONFIG_DIR: dir } });
    expect(JSON.parse(r.stdout)).toEqual([
      { name: '__proto__', expansion: 'agents list' },
      { name: 'ok', expansion: 'agents list' },
    ]);
    const toString = await svc(['toString'], { env: { SVC_CONFIG_DIR: dir } });
    expect(toString.code).toBe(2);
    expect(toString.stderr).toMatch(/unknown command 'toString'/);
  });

  it('runs an alias: its words with $1 taken from the arguments and the rest appended, global options kept', async () => {
    const env = { SVC_CONFIG_DIR: tempConfigDir(), ...emuEnv(t.emu) };
    await svc(['agents', 'create', '--name', 'aliased', '--model', 'm-1'], { env });
    await svc(['alias', 'set', 'named', 'agents get $1'], { env });
    const r = await svc(['-o', 'json', 'named', 'aliased', '--jq', '.name'], { env });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'aliased\n', '']);
    const short = await svc(['named'], { env });
    expect([short.code, short.stderr]).toEqual([2, 'error: alias "named" (agents get $1) needs an argument for $1; 0 given\n']);
  });

  it('runs a ! alias through sh -c with the arguments as "$@", its exit code kept', async () => {
    const env = { SVC_CONFIG_DIR: tempConfigDir(), PATH: process.env.PATH };
    await svc(['alias', 'set', 'echoes', '!printf "%s|" "$0" "$@"; exit 7'], { env });
    const r = await svc(['echoes', 'a b', 'c'], { env });
    expect([r.code, r.stdout]).toEqual([7, 'echoes|a b|c|']);
  });

  it('expands words as sh splits them, without expanding anything else', () => {
    expect(splitWords(`run --agent "a \\"b\\"" 'x $HOME' c\\ d`)).toEqual(['run', '--agent', 'a "b"', 'x $HOME', 'c d']);
    expect(expandAlias('a', 'sessions list --agent $2 --status $1', ['idle', 'rev', 'extra'])).toEqual({
      argv: ['sessions', 'list', '--agent', 'rev', '--status', 'idle', 'extra'],
    });
    expect(expandAlias('a', '!echo hi', ['x'])).toEqual({ shell: 'echo hi', args: ['x'] });
  });
});
