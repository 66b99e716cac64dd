import { randomBytes } from 'node:crypto';
import { lstat, open, rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Anchor } from '../api/stream/backfill';
import { UsageError } from '../errors';
import { readInputFile } from '../input/read';
import type { Io } from '../io';
import { isObject } from '../is-object';

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
 * after each change (one write at a time, the latest state each time), to a temp file of a random name created
 * exclusively, then renamed over it, so a kill at any moment leaves the old state or the new one.
 */
export class ListenState {
  private dirty = false;
  private writing?: Promise<void>;
  private failing = false;

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
   * is exit 2 before anything is followed. A file that is not a state file is exit 2, never overwritten.
   */
  static async open(io: Pick<Io, 'cwd' | 'signal'>, name: string, now: number, onError: (line: string) => void): Promise<ListenState> {
    const path = resolve(io.cwd, name);
    if (await exists(path)) {
      const text = (await readInputFile(name, io.cwd, { what: `--state ${name}`, limit: MAX_STATE_BYTES, signal: io.signal })).toString('utf8');
      return new ListenState(parse(text, name), path, onError);
    }
    const state = new ListenState({ version: VERSION, since: new Date(now).toISOString(), sessions: {} }, path, onError);
    try {
      await state.write();
    } catch (e) {
      throw new UsageError(`cannot write --state ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    return state;
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
    const path = this.path!;
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    const fh = await open(tmp, 'wx', 0o600);
    try {
      await fh.writeFile(JSON.stringify(this.data));
    } catch (e) {
      await fh.close();
      await rm(tmp, { force: true });
      throw e;
    }
    await fh.close();
    try {
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  }
}

/** Missing is a fresh start; anything else (a folder, a dangling link) is left to the read to name. */
async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT';
  }
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
