import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Anchor } from '../api/stream/backfill';
import { UsageError } from '../runtime/errors';
import { atomicWrite } from '../fs/atomic-write';
import { lockText, releaseLock, tryLock } from '../fs/lock';
import { readInputFile } from '../input/read';
import type { Io } from '../runtime/io';
import { isObject } from '../wire/is-object';

/** What a state file remembers of a session: the newest event whose delivery is settled, and all before it. */
interface Settled {
  event_id: string;
  processed_at: string;
}

interface StateData {
  version: 1;
  /** When this state's first listener started: events of a session not yet remembered are read from then on. */
  since: string;
  sessions: Record<string, Settled>;
}

const VERSION = 1;
/** A state of 100 000 sessions is a few MiB; more is not a state file. */
const MAX_STATE_BYTES = 64 * 1024 * 1024;

/**
 * Where each session's delivery stands, in memory and, with `--state FILE`, on disk: the file is rewritten whole
 * after each change (one write at a time, the latest state each time), atomically (atomic-write.ts), so a kill or a
 * crash at any moment leaves the old state or the new one.
 */
export class ListenState {
  private dirty = false;
  private writing?: Promise<void>;
  private failing = false;
  /** The lock file beside `--state` this listener holds. */
  private lock?: { path: string; mine: string };

  private constructor(
    private readonly data: StateData,
    readonly path: string | undefined,
    private readonly onError: (line: string) => void,
  ) {}

  /** A fresh state that lives in memory only. */
  static memory(now: number): ListenState {
    return new ListenState({ version: VERSION, since: new Date(now).toISOString(), sessions: {} }, undefined, () => undefined);
  }

  /**
   * Reads `--state FILE`, or starts one when it does not exist, written at once so a path that cannot be written
   * is exit 2 before anything is followed. A file that is not a state file is exit 2, never overwritten; so is one
   * that is a link, another user's, or writable by others (a planted state replays or skips events), and one another
   * listener holds: two listeners on one file would each rewrite it with their own sessions. Held until `close`.
   */
  static async open(io: Pick<Io, 'cwd' | 'signal'>, name: string, now: number, onError: (line: string) => void): Promise<ListenState> {
    const path = resolve(io.cwd, name);
    const what = `--state ${name}`;
    const st = await lstatOf(path, what);
    if (st) trusted(st, what, name);
    const lock = `${path}.lock`;
    const mine = lockText();
    const holder = tryLock(lock, mine, { noun: `lock of ${what}`, holder: 'svc listen' });
    if (holder)
      throw new UsageError(
        `${what} is in use by ${holder.pid ? `PID ${holder.pid}` : 'a starting svc'} (another svc listen); stop it, or give each listener its own --state`,
      );
    try {
      const state = st
        ? new ListenState(parse(await readState(io, name), name), path, onError)
        : new ListenState({ version: VERSION, since: new Date(now).toISOString(), sessions: {} }, path, onError);
      if (!st) {
        try {
          await state.write();
        } catch (e) {
          throw new UsageError(`cannot write ${what}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
        }
      }
      state.lock = { path: lock, mine };
      return state;
    } catch (e) {
      releaseLock(lock, mine);
      throw e;
    }
  }

  /** Writes what is settled, then lets another listener take the file. */
  async close(): Promise<void> {
    await this.flush();
    if (this.lock) releaseLock(this.lock.path, this.lock.mine);
    this.lock = undefined;
  }

  /** When this state's first listener started (ms). */
  get since(): number {
    return Date.parse(this.data.since);
  }

  /** Where reading resumes for a session: after its newest settled event; undefined for a session never seen. */
  anchorOf(sessionId: string): Anchor | undefined {
    const s = this.data.sessions[sessionId];
    return s && { kind: 'after', id: s.event_id, at: Date.parse(s.processed_at) };
  }

  /** The session's deliveries are settled up to this event (accepted, dropped, or not chosen). */
  settle(sessionId: string, e: { id: string; processed_at: string }): void {
    this.data.sessions[sessionId] = { event_id: e.id, processed_at: e.processed_at };
    this.changed();
  }

  /** A session that left the selection is no longer remembered. */
  forget(sessionId: string): void {
    if (!(sessionId in this.data.sessions)) return;
    delete this.data.sessions[sessionId];
    this.changed();
  }

  /** Resolves once everything settled so far is on disk (or failed to be written, which was reported). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private changed(): void {
    if (!this.path) return;
    this.dirty = true;
    this.writing ??= this.writeLoop();
  }

  private async writeLoop(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        try {
          await this.write();
          if (this.failing) this.onError(`--state ${this.path} is written again`);
          this.failing = false;
        } catch (e) {
          // Reported once until a write succeeds: what is not on disk is delivered again after a restart.
          if (!this.failing)
            this.onError(
              `cannot write --state ${this.path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; a restart will deliver again what was delivered since`,
            );
          this.failing = true;
          return;
        }
      }
    } finally {
      this.writing = undefined;
    }
  }

  private async write(): Promise<void> {
    await atomicWrite(this.path!, JSON.stringify(this.data), { fsync: true });
  }
}

/** Missing (undefined) is a fresh start; a folder or other odd file is left to the read to name. */
async function lstatOf(path: string, what: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read ${what}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** As the config folder is: the user's own (or root's), writable by no one else, and no link (it is replaced). */
function trusted(st: Stats, what: string, name: string): void {
  if (st.isSymbolicLink()) throw new UsageError(`${what} is a symbolic link; give the file itself (svc replaces the file at each write)`);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid && st.uid !== 0) throw new UsageError(`${what} belongs to another user (uid ${st.uid}); use a file of your own`);
  if ((st.mode & 0o022) !== 0)
    throw new UsageError(`${what} is writable by others (mode ${(st.mode & 0o7777).toString(8)}); make it private (chmod 600 ${name})`);
}

async function readState(io: Pick<Io, 'cwd' | 'signal'>, name: string): Promise<string> {
  const o = { what: `--state ${name}`, limit: MAX_STATE_BYTES, signal: io.signal, localLimitOf: 'a listen state file' };
  return (await readInputFile(name, io.cwd, o)).toString('utf8');
}

function parse(text: string, name: string): StateData {
  const bad = (why: string) => new UsageError(`--state ${name} is not a listen state file (${why}); fix or remove it`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw bad('not JSON');
  }
  if (!isObject(data) || data.version !== VERSION) throw bad(`no "version": ${VERSION}`);
  if (typeof data.since !== 'string' || Number.isNaN(Date.parse(data.since))) throw bad('no "since" time');
  if (!isObject(data.sessions)) throw bad('no "sessions" object');
  for (const [id, s] of Object.entries(data.sessions)) {
    if (!isObject(s) || typeof s.event_id !== 'string' || typeof s.processed_at !== 'string') throw bad(`session ${id} has no event_id and processed_at`);
  }
  return data as unknown as StateData;
}
