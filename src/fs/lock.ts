/**
 * The one lock file svc takes (the config's, an apply set's, a listen --state's): `NAME.lock`, created exclusively,
 * holding "pid nonce". The folder it lives in is local to the host, so a holder whose process is gone is stale and
 * taken over. A lock file that is not a regular file with that content is refused, naming it, rather than waited on
 * or removed: no svc made it, and waiting would never end.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { InterruptedError, UsageError } from '../runtime/errors';
import { sleep } from '../async/sleep';

/** A lock file still empty after this long lost its writer between create and write. */
const EMPTY_STALE_MS = 5_000;

/** How a lock is named in messages (`apply lock` held by `svc apply`), and how long a holder may hold it. */
export interface LockKind {
  noun: string;
  holder: string;
  /**
   * A lock older than this is stale whoever holds it (its pid may have been reused): for holders that only ever hold
   * it for a moment. Without it, only a gone holder is stale.
   */
  staleMs?: number;
  /** The error class of a lock svc cannot take or understand (exit 2 either way). */
  refusal?: new (message: string) => Error;
}

/** Who holds a lock: its text, its pid (0 while its creator is still writing it), and when it was written. */
export interface Holder {
  text: string;
  pid: number;
  mtimeMs: number;
}

/** What this process writes into a lock it takes: "pid nonce". */
export const lockText = (): string => `${process.pid} ${nonce()}`;

/** Tells this holder's lock from a later one of the same pid; not a secret, so node:crypto is not needed. */
const nonce = (): string => `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;

/** A pid, a space, a token: what lockText writes (a lock svc did not write is refused). */
const LOCK_TEXT = /^[1-9][0-9]* [!-~]+$/;

/** One try at the lock (holding `mine` once taken): undefined once it is taken, else the holder that keeps it. */
export function tryLock(lock: string, mine: string, kind: LockKind): Holder | undefined {
  const Refusal = kind.refusal ?? UsageError;
  for (;;) {
    try {
      writeFileSync(lock, mine, { flag: 'wx', mode: 0o600 });
      return undefined;
    } catch (e) {
      if (code(e) !== 'EEXIST') throw new Refusal(`cannot create the ${kind.noun} ${lock}: ${code(e)}`);
    }
    const holder = readHolder(lock, kind);
    if (holder === undefined || breakIfStale(lock, holder, kind)) continue;
    return holder;
  }
}

export interface LockWait {
  kind: LockKind;
  /** How long to wait for another holder before `timedOut`. */
  waitMs: number;
  /** The longest pause between tries: about as long as a holder holds it. */
  maxPauseMs: number;
  /** Told once, when the lock is held by another. */
  onHeld?: (holder: Holder) => void;
  /** The error when the wait ran out. */
  timedOut: () => Error;
  /** Ends the wait with InterruptedError. */
  signal?: AbortSignal;
}

/** Takes the lock, waiting (with growing pauses) while a live holder keeps it. */
export async function waitForLock(lock: string, mine: string, o: LockWait): Promise<void> {
  const deadline = Date.now() + o.waitMs;
  for (let attempt = 0; ; attempt++) {
    const holder = tryLock(lock, mine, o.kind);
    if (!holder) return;
    if (attempt === 0) o.onHeld?.(holder);
    if (o.signal?.aborted) throw new InterruptedError();
    if (Date.now() > deadline) throw o.timedOut();
    await sleep(Math.min(o.maxPauseMs, 2 ** Math.min(attempt, 16)) * (0.5 + Math.random()), o.signal);
  }
}

/** Runs `work` holding the lock; it is released however `work` ends. */
export async function withLock<T>(lock: string, o: LockWait, work: () => T | Promise<T>): Promise<T> {
  const mine = lockText();
  await waitForLock(lock, mine, o);
  try {
    return await work();
  } finally {
    releaseLock(lock, mine);
  }
}

/** Removes the lock if it is still this holder's. */
export function releaseLock(lock: string, mine: string): void {
  if (readText(lock) === mine) unlinkSync(lock);
}

/**
 * The lock's holder; undefined when the lock vanished meanwhile (try again). Read through a descriptor that follows no
 * link and never waits (a FIFO), checked to be a regular file of svc's content.
 */
function readHolder(lock: string, kind: LockKind): Holder | undefined {
  const Refusal = kind.refusal ?? UsageError;
  const refused = (why: string) => new Refusal(`cannot understand the ${kind.noun} ${lock} (${why}); if no ${kind.holder} is running, remove it`);
  let fd: number;
  try {
    fd = openSync(lock, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    if (code(e) === 'ENOENT') return undefined;
    if (code(e) === 'ELOOP') throw refused('a symbolic link');
    throw new Refusal(`cannot read the ${kind.noun} ${lock}: ${code(e)}; if no ${kind.holder} is running, remove it`);
  }
  let text: string;
  let mtimeMs: number;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw refused(st.isDirectory() ? 'a folder' : 'not a regular file');
    text = readFileSync(fd, 'utf8');
    mtimeMs = st.mtimeMs;
  } finally {
    closeSync(fd);
  }
  if (text !== '' && !LOCK_TEXT.test(text)) throw refused('content svc did not write');
  return { text, pid: text === '' ? 0 : Number(text.split(' ')[0]), mtimeMs };
}

/**
 * Removes the lock if its holder is gone; true when the caller should try again at once. Breakers take turns through
 * a second lock, `NAME.lock.break`, and under it remove the lock only if it is still the holder judged stale: a holder
 * that released it and exited after being read leaves a lock another process took meanwhile, which a rename or an
 * unlink by a judgement made before would take from it, letting two writers in at once (lost writes). A break lock is
 * held for two system calls; one older than EMPTY_STALE_MS lost its breaker (kill -9) and is cleared.
 */
export function breakIfStale(lock: string, h: Holder, kind: LockKind): boolean {
  const age = Date.now() - h.mtimeMs;
  const stale = h.text === '' ? age > EMPTY_STALE_MS : !alive(h.pid) || (kind.staleMs !== undefined && age > kind.staleMs);
  if (!stale) return false;
  const breaker = `${lock}.break`;
  try {
    writeFileSync(breaker, lockText(), { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if (code(e) !== 'EEXIST') throw new (kind.refusal ?? UsageError)(`cannot create ${breaker}: ${code(e)}`);
    const st = lstatSync(breaker, { throwIfNoEntry: false });
    if (st && !st.isFile())
      throw new (kind.refusal ?? UsageError)(`cannot understand ${breaker} (not a regular file); if no ${kind.holder} is running, remove it`);
    if (st && Date.now() - st.mtimeMs > EMPTY_STALE_MS) removeIfThere(breaker);
    // another breaker is at work: the caller waits and tries again
    return false;
  }
  try {
    const now = readHolder(lock, kind);
    if (now?.text === h.text && now.mtimeMs === h.mtimeMs) removeIfThere(lock);
  } finally {
    removeIfThere(breaker);
  }
  return true;
}

/** Unlinks `path`; one already gone (a holder past its staleMs released it meanwhile) is no error. */
function removeIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if (code(e) !== 'ENOENT') throw e;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return code(e) === 'EPERM';
  }
}

function readText(path: string): string | undefined {
  try {
    return lstatSync(path).isFile() ? readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

const code = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;
