import type { SessionEvent } from '../../wire/events';
import type { EventItem } from './types';

/** How many of the newest remembered IDs a seam checks by ID; anything older is caught by its time. */
const WINDOW = 8192;

/**
 * Where delivery stands, and the one place repeats are caught. Repeats happen only at a seam, and only as a prefix
 * of what follows it:
 * - history → live: "the first streamed events may repeat the end of the page";
 * - expired cursor: the buffered `cursor=now` events may repeat the backfilled ones;
 * - a replay from the start, when history gave no stream_cursor;
 * - a reconnect after an event frame that carried no `id` (its cursor is older than what was delivered).
 * Everywhere else nothing can repeat: a stream sends complete events in order, once, and a reconnect
 * with the last frame `id` resumes with the events after that frame. So outside a seam
 * an event costs nothing here (not parsed, not remembered), and a seam ends at the first event that is not a repeat.
 */
export class Delivered {
  /** IDs that may come back at the next seam: the history or backfill just delivered, events sent without a cursor. */
  private recent = new Set<string>();
  private older = new Set<string>();
  private newest?: EventItem;
  /** The seam being crossed: its candidate IDs, and the newest delivered time before it. */
  private seam?: { recent: Set<string>; older: Set<string>; at: number };

  /** False for a repeat (dropped); true records the event as delivered. */
  accept(it: EventItem): boolean {
    if (this.seam && this.repeats(it.event)) return false;
    this.newest = it;
    return true;
  }

  /** Remembers a delivered event that a later seam may bring back. */
  remember(id: string): void {
    // Two generations of WINDOW ids: constant memory however long the history.
    if (this.recent.size >= WINDOW) {
      this.older = this.recent;
      this.recent = new Set();
    }
    this.recent.add(id);
  }

  /** The stream's cursor moved past everything remembered (a live frame with an `id`): none of it can come back. */
  forget(): void {
    if (this.recent.size) this.recent.clear();
    if (this.older.size) this.older = new Set();
  }

  /** A seam starts: what follows may repeat what was remembered, or anything not newer than the newest delivered. */
  seal(): void {
    this.seam = { recent: this.recent, older: this.older, at: this.newest ? time(this.newest.event) : -Infinity };
    this.recent = new Set();
    this.older = new Set();
  }

  /** Whether a reconnect is a seam (events were delivered after the last cursor). */
  get uncursored(): boolean {
    return this.recent.size > 0;
  }

  /** The newest delivered event; undefined before the first. Read at seams only, so only it is parsed there. */
  get last(): { id: string; at: number } | undefined {
    const e = this.newest?.event;
    return e && { id: e.id, at: time(e) };
  }

  private repeats(e: SessionEvent): boolean {
    const seam = this.seam!;
    if (seam.recent.has(e.id) || seam.older.has(e.id)) return true;
    const at = time(e);
    // Older than the newest delivered: history is ordered by processed_at, so it was delivered.
    if (Number.isFinite(at) && at < seam.at) return true;
    // The first event that is new ends the seam: repeats are a prefix.
    this.seam = undefined;
    return false;
  }
}

/** `processed_at` as milliseconds (history ordering key); an unreadable one sorts first. */
export function time(e: SessionEvent): number {
  const t = Date.parse(e.processed_at);
  return Number.isNaN(t) ? -Infinity : t;
}
