import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CACHE_FILE_NAME = 'completion-cache.json';
export const CACHE_TTL_MS = 60_000;

export interface Candidate {
  id: string;
  label: string;
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

  /** The entry, fresh or not; a missing or unreadable cache is simply empty. */
  read(key: string): { items: Candidate[]; fresh: boolean } | undefined {
    const e = this.entries()[key];
    return e && { items: e.items, fresh: this.now() - e.at < CACHE_TTL_MS };
  }

  write(key: string, items: Candidate[]): void {
    const now = this.now();
    const kept = Object.fromEntries(Object.entries(this.entries()).filter(([, e]) => now - e.at < CACHE_TTL_MS));
    kept[key] = { at: now, items };
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // Written whole and renamed, so a completion running at the same time never reads half a file.
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(kept), { mode: 0o600 });
    renameSync(tmp, this.file);
  }

  private entries(): Record<string, Entry> {
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8'));
      return data && typeof data === 'object' ? data : {};
    } catch {
      return {};
    }
  }
}
