import type { SessionEvent } from '../../wire/events';

/** Repeats only happen near a seam (history → live, backfill → live), so a window of recent IDs is enough. */
const WINDOW = 8192;

/** Where delivery stands: what has been delivered lately, and the newest event delivered (the backfill anchor). */
export class Delivered {
  private recent = new Set<string>();
  private older = new Set<string>();
  private newest?: SessionEvent;
  /**
   * After a seam (a backfill, or a replay from the start), live events older than the newest delivered one are
   * repeats (history is ordered by processed_at); the ID window alone could miss them when many arrived meanwhile.
   */
  private seam?: number;

  has(e: SessionEvent): boolean {
    if (this.recent.has(e.id) || this.older.has(e.id)) return true;
    if (this.seam === undefined) return false;
    const at = time(e);
    if (!Number.isFinite(at)) return false;
    if (at < this.seam) return true;
    // Equally old and not in the window: new. Newer: the seam is behind us.
    if (at > this.seam) this.seam = undefined;
    return false;
  }

  /** The newest delivered event; undefined before the first. Read at seams only, so its time is parsed there, not per event. */
  get last(): { id: string; at: number } | undefined {
    return this.newest && { id: this.newest.id, at: time(this.newest) };
  }

  add(e: SessionEvent): void {
    // Two generations of WINDOW ids: constant memory on a stream of any length.
    if (this.recent.size >= WINDOW) {
      this.older = this.recent;
      this.recent = new Set();
    }
    this.recent.add(e.id);
    this.newest = e;
  }

  /** Marks a seam at the newest delivered event (R-STREAM-30, R-HIST-10). */
  seal(): void {
    this.seam = this.last?.at;
  }
}

/** `processed_at` as milliseconds (history ordering key); an unreadable one sorts first. */
export function time(e: SessionEvent): number {
  const t = Date.parse(e.processed_at);
  return Number.isNaN(t) ? -Infinity : t;
}
