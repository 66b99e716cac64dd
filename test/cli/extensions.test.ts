import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { spawnSvc, useBundledSvc } from '../helpers/bundled';
import { useEmulator } from '../helpers/emulator';

const t = useEmulator();
const bundled = useBundledSvc();

/** A folder for PATH holding executables named svc-NAME, each a shell script. */
function extensionDir(scripts: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ext-'));
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(dir, `svc-${name}`), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, `svc-${name}`), 0o755);
  }
  return dir;
}

const PATH = process.env.PATH ?? '';

describe('svc extensions', () => {
  it('runs svc-NAME on PATH as svc NAME: arguments, stdin, stdout, stderr and the exit code passed through', async () => {
    const dir = extensionDir({ hello: 'printf "args:%s|" "$@"; cat; echo oops >&2; exit 42' });
    const r = await svc(['hello', 'a b', '--flag'], { env: { PATH: `${dir}:${PATH}` }, stdin: 'from stdin' });
    expect([r.code, r.stdout, r.stderr]).toEqual([42, 'args:a b|args:--flag|from stdin', 'oops\n']);
  });

  it('never adds the API key to the environment; SVC_BIN is set and --profile before the name becomes SVC_PROFILE', async () => {
    const config = tempConfigDir();
    writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: { staging: { api_key: 'sk-profile-secret-1234' } } }), { mode: 0o600 });
    const dir = extensionDir({ env: 'env | grep -E "^SVC_" | sort' });
    const r = await svc(['--profile', 'staging', 'env'], { env: { PATH: `${dir}:${PATH}`, SVC_CONFIG_DIR: config } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('sk-profile-secret');
    expect(r.stdout).not.toContain('SVC_API_KEY');
    expect(r.stdout).toMatch(/^SVC_BIN=\/.+$/m);
    expect(r.stdout).toContain('SVC_PROFILE=staging\n');
    const key = await svc(['--api-key', 'sk-x', 'env'], { env: { PATH: `${dir}:${PATH}`, SVC_CONFIG_DIR: config } });
    expect([key.code, key.stdout]).toEqual([2, '']);
    expect(key.stderr).toMatch(/^error: --api-key does not apply before env/);
  });

  it('a command and an alias win over an extension of the same name; an unknown word stays an unknown command', async () => {
    const dir = extensionDir({ version: 'echo extension; exit 3', mine: 'echo extension; exit 3' });
    const env = { PATH: `${dir}:${PATH}`, SVC_CONFIG_DIR: tempConfigDir() };
    expect((await svc(['version'], { env })).code).toBe(0);
    await svc(['alias', 'set', 'mine', 'version'], { env });
    const mine = await svc(['mine'], { env });
    expect([mine.code, mine.stdout.includes('extension')]).toEqual([0, false]);
    const unknown = await svc(['nosuch'], { env });
    expect([unknown.code, unknown.stderr]).toEqual([2, "error: unknown command 'nosuch'\n"]);
  });

  it('svc extension list and svc --help list them, the first on PATH of each name, not those a command holds', async () => {
    const first = extensionDir({ hello: 'exit 0', agents: 'exit 0' });
    const second = extensionDir({ hello: 'exit 0', zed: 'exit 0' });
    writeFileSync(join(second, 'svc-plain'), 'not executable');
    const env = { PATH: `${first}:${second}:${PATH}` };
    const list = await svc(['extension', 'list', '-o', 'json'], { env });
    expect(JSON.parse(list.stdout)).toEqual([
      { name: 'hello', path: join(first, 'svc-hello') },
      { name: 'zed', path: join(second, 'svc-zed') },
    ]);
    const help = await svc(['--help'], { env });
    expect(help.stdout).toContain(
      `\nExtensions (svc-NAME on PATH, run as svc NAME; an alias of the same name wins):\n  hello  ${join(first, 'svc-hello')}\n  zed    ${join(second, 'svc-zed')}\n`,
    );
    expect((await svc([], { env })).stdout).toContain(`  zed    ${join(second, 'svc-zed')}\n`);
    expect((await svc(['--help'], { env: { PATH } })).stdout).not.toContain('Extensions');
  });

  it('a PATH folder whose name holds an escape sequence is shown escaped in bare svc, as extension list shows it (issue 45 item 16)', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'svc-ext-')), 'evil\u001b]0;pwned\u0007');
    mkdirSync(dir);
    writeFileSync(join(dir, 'svc-evil'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const env = { PATH: `${dir}:${PATH}` };
    for (const args of [[], ['--help']]) {
      const r = await svc(args, { env });
      expect(r.stdout).toContain('evil\\x1b]0;pwned\\x07/svc-evil');
      expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    }
  });

  it('an extension calls svc back through $SVC_BIN with the profile given before its name (a real process)', async () => {
    const dir = extensionDir({ names: '"$SVC_BIN" agents list --jq ".[].name"; exit $?' });
    const config = tempConfigDir();
    writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: { emu: { base_url: t.emu.url, api_key: t.emu.apiKey } } }), { mode: 0o600 });
    await svc(['agents', 'create', '--name', 'called-back', '--model', 'm-1'], { env: emuEnv(t.emu) });
    const run = spawnSvc(bundled.bin, ['--profile', 'emu', 'names'], { PATH: `${dir}:${PATH}`, SVC_CONFIG_DIR: config });
    const r = await run.exit;
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\n')).toContain('called-back');
  });
});
