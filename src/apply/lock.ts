import { createHash } from 'node:crypto';
import { linkSync, lstatSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExitCodeError, InterruptedError, UsageError } from '../errors';
import { alive, nonce } from '../config/lock';

/** How long an apply waits for another apply of the same set before giving up. */
const WAIT_MS = 120_000;
/** A lock file still empty after this long lost its writer between create and write. */
const EMPTY_STALE_MS = 5_000;

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
 * Runs `work` holding a lock file for one set on one service (`apply-<hash>.lock` in the config folder,
 * created exclusively, holding "pid nonce"), so parallel applies of one set never each create the same
 * resources: the second plans only after the first has written. A holder whose process is gone is stale
 * (the config folder is local to the host); a lock file that is not a regular file with that content is
 * refused, naming it, rather than waited on or removed.
 */
export async function withApplyLock<T>(o: ApplyLock, work: () => Promise<T>): Promise<T> {
  try {
    mkdirSync(o.dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new UsageError(`cannot create the config folder ${o.dir} for the apply lock: ${code(e)}`);
  }
  const lock = applyLockPath(o.dir, o.service, o.set);
  const mine = `${process.pid} ${nonce()}`;
  const deadline = Date.now() + (o.waitMs ?? WAIT_MS);
  let told = false;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, mine, { flag: 'wx', mode: 0o600 });
      break;
    } catch (e) {
      if (code(e) !== 'EEXIST') throw new UsageError(`cannot create the apply lock ${lock}: ${code(e)}`);
    }
    const holder = readHolder(lock);
    if (holder === undefined || breakIfStale(lock, holder)) continue;
    if (!told) {
      told = true;
      o.note(`note: waiting for another svc apply of set "${o.set}" (pid ${holder.pid || 'starting'}) to finish`);
    }
    if (Date.now() > deadline)
      throw new ExitCodeError(
        7,
        `another svc apply of set "${o.set}" held the lock for ${Math.round((o.waitMs ?? WAIT_MS) / 1000)} s; if none is running, remove ${lock}`,
      );
    if (o.signal?.aborted) throw new InterruptedError();
    await new Promise((r) => setTimeout(r, Math.min(200, 10 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random())));
  }
  try {
    return await work();
  } finally {
    if (readOrUndefined(lock) === mine) unlinkSync(lock);
  }
}

/** The lock file of one set on one service: named by a hash, as a set name may hold any character. */
export function applyLockPath(dir: string, service: string, set: string): string {
  return join(dir, `apply-${createHash('sha256').update(`${service}\0${set}`).digest('hex').slice(0, 32)}.lock`);
}

interface Holder {
  text: string;
  pid: number;
  mtimeMs: number;
}

/** The lock's holder; undefined when the lock vanished meanwhile (try again). A lock svc did not write is exit 2. */
function readHolder(lock: string): Holder | undefined {
  let st;
  try {
    st = lstatSync(lock);
  } catch (e) {
    if (code(e) === 'ENOENT') return undefined;
    throw refused(lock, code(e));
  }
  if (!st.isFile()) throw refused(lock, st.isDirectory() ? 'a folder' : st.isSymbolicLink() ? 'a symlink' : 'not a regular file');
  let text: string;
  try {
    text = readFileSync(lock, 'utf8');
  } catch (e) {
    if (code(e) === 'ENOENT') return undefined;
    throw refused(lock, code(e));
  }
  if (text !== '' && !/^[1-9][0-9]* [0-9a-z]+$/.test(text)) throw refused(lock, 'content svc did not write');
  return { text, pid: text === '' ? 0 : Number(text.split(' ')[0]), mtimeMs: st.mtimeMs };
}

const refused = (lock: string, why: string) => new UsageError(`cannot understand the apply lock ${lock} (${why}); if no svc apply is running, remove it`);

/** Removes the lock if its holder is gone; true when the caller should try again at once. */
function breakIfStale(lock: string, h: Holder): boolean {
  const stale = h.text === '' ? Date.now() - h.mtimeMs > EMPTY_STALE_MS : !alive(h.pid);
  if (!stale) return false;
  // Moved aside by rename (atomic), then checked it was the lock judged stale; a fresh one taken meanwhile
  // by another process is put back.
  const aside = `${lock}.stale-${process.pid}-${nonce()}`;
  try {
    renameSync(lock, aside);
  } catch {
    return true;
  }
  if (readOrUndefined(aside) !== h.text) {
    try {
      linkSync(aside, lock);
    } catch {
      // a third process holds the lock now; the one moved aside finishes unprotected (rare, never corrupting)
    }
  }
  unlinkSync(aside);
  return true;
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

const code = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;
