import { linkSync, lstatSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { UsageError } from '../errors';
import { alive, nonce } from './lock';

/** A lock file still empty after this long lost its writer between create and write. */
const EMPTY_STALE_MS = 5_000;

/** How a lock is named in messages: `apply lock` held by `svc apply`. */
export interface LockKind {
  noun: string;
  holder: string;
}

/** Who holds a lock: its text, its pid (0 while its creator is still writing it), and when it was written. */
export interface Holder {
  text: string;
  pid: number;
  mtimeMs: number;
}

/** What this process writes into a lock it takes: "pid nonce". */
export const lockText = (): string => `${process.pid} ${nonce()}`;

/**
 * One try at a lock file (created exclusively, holding `mine`): undefined once it is taken, else the holder that
 * keeps it. A holder whose process is gone is stale (the lock's folder is local to the host) and taken over; a lock
 * file that is not a regular file with that content is refused, naming it, rather than waited on or removed.
 */
export function tryLock(lock: string, mine: string, kind: LockKind): Holder | undefined {
  for (;;) {
    try {
      writeFileSync(lock, mine, { flag: 'wx', mode: 0o600 });
      return undefined;
    } catch (e) {
      if (code(e) !== 'EEXIST') throw new UsageError(`cannot create the ${kind.noun} ${lock}: ${code(e)}`);
    }
    const holder = readHolder(lock, kind);
    if (holder === undefined || breakIfStale(lock, holder)) continue;
    return holder;
  }
}

/** Removes the lock if it is still this holder's. */
export function releaseLock(lock: string, mine: string): void {
  if (readOrUndefined(lock) === mine) unlinkSync(lock);
}

/** The lock's holder; undefined when the lock vanished meanwhile (try again). A lock svc did not write is exit 2. */
function readHolder(lock: string, kind: LockKind): Holder | undefined {
  const refused = (why: string) => new UsageError(`cannot understand the ${kind.noun} ${lock} (${why}); if no ${kind.holder} is running, remove it`);
  let st;
  try {
    st = lstatSync(lock);
  } catch (e) {
    if (code(e) === 'ENOENT') return undefined;
    throw refused(code(e));
  }
  if (!st.isFile()) throw refused(st.isDirectory() ? 'a folder' : st.isSymbolicLink() ? 'a symlink' : 'not a regular file');
  let text: string;
  try {
    text = readFileSync(lock, 'utf8');
  } catch (e) {
    if (code(e) === 'ENOENT') return undefined;
    throw refused(code(e));
  }
  if (text !== '' && !/^[1-9][0-9]* [0-9a-z]+$/.test(text)) throw refused('content svc did not write');
  return { text, pid: text === '' ? 0 : Number(text.split(' ')[0]), mtimeMs: st.mtimeMs };
}

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
