/**
 * Figures of settled sessions, kept in the user's cache folder (`svc/stats` under `$XDG_CACHE_HOME` or `~/.cache`)
 * so a second `svc stats` reads no history of a session that has not changed. An entry is keyed by service, session
 * and thread, and holds the session's `updated_at` and svc's version: either changing makes it stale. The folders
 * are opened and checked as the compile cache's are (startup/cache-folder.ts: the user's own, 0700, no links), files
 * are 0600, and the folder keeps at most MAX_ENTRIES (the oldest go). No folder, no cache: everything is read.
 */
import { createHash } from 'node:crypto';
import { closeSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { cacheRoot, type Env } from '../config/paths';
import { inFolder, openOwnFolders, readOwnFile, writeOwnFile } from '../startup/cache-folder';
import { SVC_VERSION } from '../version';
import { isTally, type Tally } from './tally';

export const MAX_ENTRIES = 20_000;
const ENTRY = /^[0-9a-f]{40}\.json$/;

export interface CacheKey {
  base: string;
  session: string;
  thread?: string;
  /** What the entry holds besides the figures (`grep`: the searchable text of a history); part of the key. */
  kind?: string;
}

interface Entry {
  v: string;
  base: string;
  session: string;
  thread: string | null;
  kind?: string;
  marker: string;
  tally?: Tally;
  data?: unknown;
}

export class StatsCache {
  private written = 0;

  private constructor(private readonly folder: number) {}

  /** The cache folder, made where missing; undefined where it cannot be one of the user's own. */
  static open(env: Env): StatsCache | undefined {
    const root = cacheRoot(env);
    if (!root) return undefined;
    const fd = openOwnFolders(root, ['svc', 'stats']);
    return fd === undefined ? undefined : new StatsCache(fd);
  }

  /** The figures kept for this key under this marker (`updated_at`) and this version of svc; else undefined. */
  get(key: CacheKey, marker: string): Tally | undefined {
    const e = this.entry(key, marker);
    // A malformed entry (another build, an edit, a torn write) is no entry: the history is read again.
    return isTally(e?.tally) ? e.tally : undefined;
  }

  put(key: CacheKey, marker: string, tally: Tally): void {
    this.write({ v: SVC_VERSION, base: key.base, session: key.session, thread: key.thread ?? null, marker, tally }, key);
  }

  /** What another reader of histories kept under this key (its `kind`) and marker; else undefined. */
  getData(key: CacheKey & { kind: string }, marker: string): unknown {
    return this.entry(key, marker)?.data;
  }

  putData(key: CacheKey & { kind: string }, marker: string, data: unknown): void {
    this.write({ v: SVC_VERSION, base: key.base, session: key.session, thread: key.thread ?? null, kind: key.kind, marker, data }, key);
  }

  private entry(key: CacheKey, marker: string): Entry | undefined {
    const raw = readOwnFile(this.folder, fileOf(key));
    if (!raw) return undefined;
    try {
      const e = JSON.parse(raw.toString('utf8')) as Entry;
      const same =
        e.v === SVC_VERSION &&
        e.base === key.base &&
        e.session === key.session &&
        e.thread === (key.thread ?? null) &&
        e.kind === key.kind &&
        e.marker === marker;
      return same ? e : undefined;
    } catch {
      return undefined;
    }
  }

  private write(e: Entry, key: CacheKey): void {
    writeOwnFile(this.folder, fileOf(key), JSON.stringify(e));
    this.written++;
  }

  /** Keeps the folder to MAX_ENTRIES entries, the most recently written; then lets the folder go. */
  close(): void {
    try {
      if (this.written > 0) prune(this.folder, MAX_ENTRIES);
    } finally {
      closeSync(this.folder);
    }
  }
}

const fileOf = (k: CacheKey) =>
  `${createHash('sha256')
    .update(`${k.base}\n${k.session}\n${k.thread ?? ''}${k.kind === undefined ? '' : `\n${k.kind}`}`)
    .digest('hex')
    .slice(0, 40)}.json`;

function prune(folder: number, most: number): void {
  let names: string[];
  try {
    names = readdirSync(inFolder(folder, '.')).filter((n) => ENTRY.test(n));
  } catch {
    return;
  }
  if (names.length <= most) return;
  const aged = names.map((n) => ({ n, at: mtime(folder, n) })).sort((a, b) => a.at - b.at);
  for (const { n } of aged.slice(0, names.length - most)) {
    try {
      unlinkSync(inFolder(folder, n));
    } catch {
      // another run removed it first
    }
  }
}

function mtime(folder: number, name: string): number {
  try {
    return statSync(inFolder(folder, name)).mtimeMs;
  } catch {
    return 0;
  }
}
