import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ExitCodeError, UsageError } from '../runtime/errors';
import { withLock } from '../fs/lock';

/** How long an apply waits for another apply of the same set before giving up. */
const WAIT_MS = 120_000;

export interface ApplyLock {
  /** The folder the lock files live in (the config folder). */
  dir: string;
  /** The service and the set: applies of the same set to the same service run one after the other. */
  service: string;
  set: string;
  /** Told once when the lock is held by another apply. */
  note: (line: string) => void;
  signal?: AbortSignal;
  /** For tests: a shorter wait. */
  waitMs?: number;
}

/**
 * Runs `work` holding a lock file for one set on one service (`apply-<hash>.lock` in the config folder, fs/lock.ts),
 * so parallel applies of one set never each create the same resources: the second plans only after the first has
 * written.
 */
export async function withApplyLock<T>(o: ApplyLock, work: () => Promise<T>): Promise<T> {
  try {
    mkdirSync(o.dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new UsageError(`cannot create the config folder ${o.dir} for the apply lock: ${code(e)}`);
  }
  const lock = applyLockPath(o.dir, o.service, o.set);
  const waitMs = o.waitMs ?? WAIT_MS;
  return withLock(
    lock,
    {
      kind: { noun: 'apply lock', holder: 'svc apply' },
      waitMs,
      maxPauseMs: 200,
      onHeld: (holder) => o.note(`note: waiting for another svc apply of set "${o.set}" (pid ${holder.pid || 'starting'}) to finish`),
      timedOut: () =>
        new ExitCodeError(7, `another svc apply of set "${o.set}" held the lock for ${Math.round(waitMs / 1000)} s; if none is running, remove ${lock}`),
      signal: o.signal,
    },
    work,
  );
}

/** The lock file of one set on one service: named by a hash, as a set name may hold any character. */
export function applyLockPath(dir: string, service: string, set: string): string {
  return join(dir, `apply-${createHash('sha256').update(`${service}\0${set}`).digest('hex').slice(0, 32)}.lock`);
}

const code = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;
