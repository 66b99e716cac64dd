import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');

describe('the launcher of a checkout that was never built (no dist/)', () => {
  const checkout = mkdtempSync(join(tmpdir(), 'svc-not-built-'));
  cpSync(join(root, 'bin'), join(checkout, 'bin'), { recursive: true });
  afterAll(() => rmSync(checkout, { recursive: true, force: true }));

  it('prints one line naming `npm run build` on stderr and exits 1, never a stack', () => {
    for (const args of [['--version'], ['agents', 'list'], ['demo'], []]) {
      const r = spawnSync(process.execPath, [join(checkout, 'bin', 'svc.js'), ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
      expect({ args, status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
        args,
        status: 1,
        stdout: '',
        stderr: 'svc is not built here: run `npm run build`\n',
      });
    }
  });
});
