import { closeSync, constants, fstatSync, linkSync, lstatSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { ConfigError, InterruptedError } from '../errors';

// Assumption: the config folder is local to the host, so a lock whose process is gone is stale at once;
// a lock older than this is stale whoever holds it (its pid may have been reused), since a holder
// only reads and writes one small file.
const STALE_MS = 10_000;
const WAIT_MS = 30_000;

/**
 * Runs `work` holding an exclusive lock file beside `file` (`FILE.lock`, created with O_EXCL, holding
 * "pid nonce"), so concurrent read-modify-writes of the config never lose one another's changes.
 * The wait ends at a deadline or when `signal` aborts; a lock that is not a readable regular file is an error
 * naming it, since no svc made it and waiting would never end.
 */
export async function withFileLock<T>(file: string, work: () => T, signal?: AbortSignal): Promise<T> {
  const lock = `${file}.lock`;
  const mine = `${process.pid} ${nonce()}`;
  const deadline = Date.now() + WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, mine, { flag: 'wx', mode: 0o600 });
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new ConfigError(`cannot lock config file ${file} (creating ${lock}): ${code ?? (e as Error).message}`);
    }
    if (signal?.aborted) throw new InterruptedError();
    if (Date.now() > deadline)
      throw new ConfigError(`config file ${file} stayed locked by another svc for ${WAIT_MS / 1000} s; if none is running, remove ${lock}`);
    if (breakIfStale(lock)) continue;
    await pause(Math.min(50, 2 ** Math.min(attempt, 6)) * (0.5 + Math.random()), signal);
  }
  try {
    return work();
  } finally {
    if (readLock(lock) === mine) unlinkSync(lock);
  }
}

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * The lock's text, or undefined when it is gone. Read through a descriptor that follows no link and never waits
 * (a FIFO), checked to be a regular file; anything else is a ConfigError naming the lock.
 */
function readLock(lock: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(lock, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw notAFile(lock, 'a symbolic link');
    throw new ConfigError(`cannot read config lock ${lock}: ${code ?? (e as Error).message}; if no svc is running, remove it`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notAFile(lock, st.isDirectory() ? 'a folder' : 'not a regular file');
    return readFileSync(fd, 'utf8');
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`cannot read config lock ${lock}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; if no svc is running, remove it`);
  } finally {
    closeSync(fd);
  }
}

const notAFile = (lock: string, what: string) => new ConfigError(`config lock ${lock} is ${what}, which svc never makes; if no svc is running, remove it`);

/** Removes the lock if its holder is gone; true when the caller should try again at once. */
function breakIfStale(lock: string): boolean {
  const seen = readLock(lock);
  if (seen === undefined) return true;
  let age: number;
  try {
    age = Date.now() - lstatSync(lock).mtimeMs;
  } catch {
    return true;
  }
  // An empty lock is being written by its creator: only age makes it stale.
  const pid = Number(seen.split(' ')[0]);
  if (!(age > STALE_MS || (seen !== '' && !alive(pid)))) return false;
  // Move the stale lock aside by rename (atomic), then check it was the one judged stale: another process
  // may have broken it and taken a fresh one meanwhile, which is put back.
  const aside = `${lock}.stale-${process.pid}-${nonce()}`;
  try {
    renameSync(lock, aside);
  } catch {
    return true;
  }
  if (readLock(aside) !== seen) {
    try {
      linkSync(aside, lock);
    } catch {
      // a third process holds the lock now; the one moved aside finishes unprotected (rare, and never corrupting)
    }
  }
  unlinkSync(aside);
  return true;
}

/** Tells this holder's lock from a later one of the same pid; not a secret, so node:crypto is not needed. */
export const nonce = (): string => `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;

export function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
