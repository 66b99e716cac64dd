// Item 26 of issue 45: one way to find a program svc starts, absolute PATH entries only.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findProgram, pathDirs } from '../../src/fs/find-program';
import { svc, tempConfigDir } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';

/** A folder under a fresh working folder holding an executable `name`, and that working folder. */
function plant(name: string): { cwd: string; bin: string } {
  const cwd = mkdtempSync(join(tmpdir(), 'svc-find-'));
  const bin = join(cwd, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, name), `#!/bin/sh\necho planted > '${join(cwd, 'ran')}'\n`);
  chmodSync(join(bin, name), 0o755);
  return { cwd, bin };
}

describe('findProgram (issue 45 item 26)', () => {
  it('takes absolute PATH entries only: bin, ., an empty entry and ./bin are never searched, whatever the working folder', () => {
    const { cwd, bin } = plant('tool');
    const here = process.cwd();
    process.chdir(cwd);
    try {
      for (const PATH of ['bin', '.:bin', ':bin', './bin', 'bin:/nonexistent', '']) {
        expect(findProgram('tool', { PATH }), PATH).toBeUndefined();
      }
    } finally {
      process.chdir(here);
    }
    expect(findProgram('tool', { PATH: `bin:${bin}` })).toBe(join(bin, 'tool'));
    expect(pathDirs({ PATH: `.:bin::${bin}:/usr/bin` })).toEqual([bin, '/usr/bin']);
  });

  it('the first executable file wins; a folder, a file without x, and a name with a slash are no program', () => {
    const a = plant('tool');
    const b = plant('tool');
    expect(findProgram('tool', { PATH: `${a.bin}:${b.bin}` })).toBe(join(a.bin, 'tool'));
    chmodSync(join(a.bin, 'tool'), 0o644);
    expect(findProgram('tool', { PATH: `${a.bin}:${b.bin}` })).toBe(join(b.bin, 'tool'));
    mkdirSync(join(a.bin, 'dir'));
    expect(findProgram('dir', { PATH: a.bin })).toBeUndefined();
    expect(findProgram('bin/tool', { PATH: b.cwd })).toBeUndefined();
    symlinkSync(join(b.bin, 'tool'), join(a.bin, 'link'));
    expect(findProgram('link', { PATH: a.bin })).toBe(join(a.bin, 'link'));
  });
});

describe('the keychain tool on a hostile PATH (issue 45 item 7)', () => {
  const t = useEmulator();
  it('a secret-tool in a relative PATH entry (bin, .) is never handed the key: no keychain, the key in the file', async () => {
    const { cwd, bin } = plant('secret-tool');
    const here = process.cwd();
    try {
      // Beside the relative entry, an absolute folder without a secret-tool: a real one in /usr/bin (CI installs
      // libsecret-tools) would be found there, rightly, and say nothing about the planted one.
      const empty = tempConfigDir();
      for (const [PATH, at] of [
        [`bin:${empty}`, cwd],
        [`.:${empty}`, bin],
      ]) {
        process.chdir(at);
        const dir = tempConfigDir();
        const env = { SVC_CONFIG_DIR: dir, SVC_BASE_URL: t.emu.url, PATH, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' };
        const r = await svc(['auth', 'login', '--with-token'], { env, stdin: t.emu.apiKey, cwd: at });
        expect(r.stderr, PATH).toContain('no secret-tool on PATH');
        expect([r.code, existsSync(join(cwd, 'ran'))]).toEqual([0, false]);
      }
    } finally {
      process.chdir(here);
    }
  });
});
