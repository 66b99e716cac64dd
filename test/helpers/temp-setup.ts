/**
 * Vitest's global setup: one temporary folder for the whole run, made the TMPDIR of every test process (and of what
 * they start without an environment of their own), removed when the run ends. The tests make thousands of folders
 * with mkdtemp; they no longer pile up in /tmp run after run. Sticky and open to all (1777) like /tmp itself, since the
 * tests that act as another local user make folders in it for that user.
 *
 * It also checks that the run leaves /dev/null a device: run as root, zsh's `compinit -d /dev/null` once renamed its
 * dump file over it (test/completion/zsh-capture.zsh), and everything after that needed /dev/null (tmux) failed.
 */
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const isDevice = (path: string) => {
  try {
    return statSync(path).isCharacterDevice();
  } catch {
    return false;
  }
};

export default function setup(): () => void {
  const nullWasDevice = isDevice('/dev/null');
  const before = process.env.TMPDIR;
  const run = mkdtempSync(join(tmpdir(), 'svc-tests-'));
  chmodSync(run, 0o1777);
  process.env.TMPDIR = run;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(run, { recursive: true, force: true, maxRetries: 3 });
    if (nullWasDevice && !isDevice('/dev/null'))
      throw new Error('a test replaced /dev/null with a file: restore it (mknod -m 666 /dev/null c 1 3) and find the test');
  };
}
