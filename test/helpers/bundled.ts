import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, inject } from 'vitest';

/**
 * The launcher of the run's one private build of bin/svc.js (test/helpers/bundle-setup.ts), for tests that need real
 * processes (signals, kill -9, parallel writers): built on the first ask of the run, then shared, so never written to.
 * Resolves once it is built.
 */
export async function sharedBundle(): Promise<string> {
  const res = await fetch(inject('svcBundleUrl'));
  const answer = (await res.json()) as { bin?: string; error?: string };
  if (!answer.bin) throw new Error(`the test run's bundle did not build: ${answer.error}`);
  return answer.bin;
}

/** The shared bundle's launcher for a file's tests, built (if no file asked before) before they start. */
export function useBundledSvc(): { readonly bin: string } {
  const holder = { bin: '' };
  beforeAll(async () => {
    holder.bin = await sharedBundle();
  }, 120_000);
  return holder;
}

/** Root with setpriv at hand: a test can act as another local user (`nobody`). */
export const canActAsNobody = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;

/** A copy of a built svc's bin/ and dist/ (which need nothing else to run) in `folder`; returns its launcher. */
export function copyOfBuild(bin: string, folder: string): string {
  const from = dirname(dirname(bin));
  for (const d of ['bin', 'dist']) cpSync(join(from, d), join(folder, d), { recursive: true });
  return join(folder, 'bin', 'svc.js');
}

/**
 * A copy of a built svc that another local user can run: in a fresh folder under the system's temporary folder, open
 * to all, wherever the checkout is (a clone in a folder only its owner may enter, such as one of `mktemp -d` or
 * /root, is closed to that user). Removed by the caller.
 */
export function builtForOtherUsers(bin: string): { bin: string; folder: string } {
  const folder = mkdtempSync(join(tmpdir(), 'svc-other-user-'));
  const copy = copyOfBuild(bin, folder);
  const open = (path: string): void => {
    const dir = statSync(path).isDirectory();
    chmodSync(path, dir ? 0o755 : 0o644);
    if (dir) for (const name of readdirSync(path)) open(join(path, name));
  };
  open(folder);
  return { bin: copy, folder };
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
