/**
 * Vitest's global setup: one temporary folder for the whole run, made the TMPDIR of every test process (and of what
 * they start without an environment of their own), removed when the run ends. The tests make thousands of folders
 * with mkdtemp; they no longer pile up in /tmp run after run. Sticky and open to all (1777) like /tmp itself, since the
 * tests that act as another local user make folders in it for that user.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const before = process.env.TMPDIR;
  const run = mkdtempSync(join(tmpdir(), 'svc-tests-'));
  chmodSync(run, 0o1777);
  process.env.TMPDIR = run;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(run, { recursive: true, force: true, maxRetries: 3 });
  };
}
