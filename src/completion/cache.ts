import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { atomicWriteSync } from '../fs/atomic-write';

export const CACHE_FILE_NAME = 'completion-cache.json';
export const CACHE_TTL_MS = 60_000;

/** What the shell may insert (an ID, a version, a name) and what it shows beside it. */
export interface Candidate {
  value: string;
  label: string;
  /** A name's candidate: the ID it stands for, so that a value nested under the name lists under that ID. */
  id?: string;
}

interface Entry {
  at: number;
  items: Candidate[];
}

/** Completion candidates per profile, base URL and list, in the config directory (0600), for a minute. */
export class CompletionCache {
  private readonly file: string;

  constructor(
    private readonly dir: string,
    private readonly now: () => number,
  ) {
    this.file = join(dir, CACHE_FILE_NAME);
  }

  /** The entry, fresh or not; a missing, unreadable or malformed cache or entry is simply absent (and refilled). */
  read(key: string): { items: Candidate[]; fresh: boolean } | undefined {
    const e = this.entries()[key];
    if (!e) return undefined;
    const age = this.now() - e.at;
    return { items: e.items, fresh: age >= 0 && age < CACHE_TTL_MS };
  }

  write(key: string, items: Candidate[]): void {
    const now = this.now();
    const kept = Object.fromEntries(Object.entries(this.entries()).filter(([, e]) => now - e.at >= 0 && now - e.at < CACHE_TTL_MS));
    kept[key] = { at: now, items };
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // Whole: a completion running at the same time never reads half a file.
    atomicWriteSync(this.file, JSON.stringify(kept));
  }

  /** The well-formed entries; anything else in the file (hand-edited, cut short, an older shape) is left out. */
  private entries(): Record<string, Entry> {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch {
      return {};
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
    return Object.fromEntries(Object.entries(data).filter(([, e]) => isEntry(e)));
  }
}

function isEntry(e: unknown): e is Entry {
  if (!e || typeof e !== 'object') return false;
  const { at, items } = e as Partial<Entry>;
  return Number.isFinite(at) && Array.isArray(items) && items.every((c) => c && typeof c.value === 'string' && typeof c.label === 'string');
}
