import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli';

const root = fileURLToPath(new URL('../..', import.meta.url));

// CI builds dist/ first: there a missing build fails this test instead of skipping it.
describe.skipIf(!existsSync(join(root, 'dist/cli.js')) && !process.env.CI)('a reader that stops early (needs `npm run build`)', () => {
  it('svc … | head: the closed pipe ends svc quietly with exit 0, no stack trace', async () => {
    // The demo writes its transcript over a second or two: the pipe is closed after the first chunk.
    const child = spawn(process.execPath, [join(root, 'bin/svc.js'), 'demo'], {
      env: { ...process.env, SVC_CONFIG_DIR: tempConfigDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(code).toBe(0);
  });
});
