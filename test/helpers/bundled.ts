import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { buildPrivateSvc } from '../../scripts/bundle.mjs';

const repo = new URL('../..', import.meta.url).pathname;

/**
 * A private build of bin/svc.js for tests that need real processes (signals, kill -9, parallel writers):
 * inside node_modules so the bundle's packages resolve; never the shared dist/, which others rebuild.
 */
export function useBundledSvc(name: string): { readonly bin: string } {
  const work = join(repo, 'node_modules', '.cache', `${name}-${process.pid}`);
  beforeAll(() => buildPrivateSvc(work), 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  return { bin: join(work, 'bin', 'svc.js') };
}

/** Root with setpriv at hand: a test can act as another local user (`nobody`). */
export const canActAsNobody = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;

/**
 * A copy of a built svc (its bin/ and dist/, which need nothing else to run) that another local user can run: in a
 * fresh folder under the system's temporary folder, open to all, wherever the checkout is (a clone in a folder only
 * its owner may enter, such as one of `mktemp -d` or /root, is closed to that user). Removed by the caller.
 */
export function builtForOtherUsers(bin: string): { bin: string; folder: string } {
  const from = dirname(dirname(bin));
  const folder = mkdtempSync(join(tmpdir(), 'svc-other-user-'));
  for (const d of ['bin', 'dist']) cpSync(join(from, d), join(folder, d), { recursive: true });
  const open = (path: string): void => {
    const dir = statSync(path).isDirectory();
    chmodSync(path, dir ? 0o755 : 0o644);
    if (dir) for (const name of readdirSync(path)) open(join(path, name));
  };
  open(folder);
  return { bin: join(folder, 'bin', 'svc.js'), folder };
}

export interface Spawned {
  child: ChildProcess;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Starts `node bin/svc.js ARGS` with only PATH and the given environment. */
export function spawnSvc(bin: string, args: string[], env: Record<string, string>, stdin: 'ignore' | 'pipe' = 'ignore'): Spawned {
  const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: [stdin, 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, output: () => stdout + stderr, exit };
}

/** True once some thread of the process sleeps in the kernel function `wchan` (Linux): a FIFO's open without a writer waits in wait_for_partner. */
export function blockedIn(pid: number, wchan: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((tid) => readFileSync(`/proc/${pid}/task/${tid}/wchan`, 'utf8').includes(wchan));
  } catch {
    return false;
  }
}

/**
 * True once the process's main thread sleeps in its event loop (Linux): a bundled svc does not before it reaches a
 * wait (a lock held by another, a timer), since start-up runs without a pause.
 */
export function idleInEventLoop(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/wchan`, 'utf8').includes('epoll');
  } catch {
    return false;
  }
}
