import { randomBytes } from 'node:crypto';
import { LIMITS } from '../wire/limits';
import { invalidParam, notFound } from './errors';

export type Rec = Record<string, any> & { id: string; created_at: string; updated_at: string };

let seq = 0;
/**
 * IDs sort in creation order (a counter, then randomness), so list order and page tokens
 * can key on the ID. Clients never see this as a rule: IDs stay opaque to them.
 */
export function newId(prefix: string): string {
  seq++;
  return `${prefix}_${seq.toString(36).padStart(8, '0')}${randomBytes(4).toString('hex')}`;
}

export const nowIso = (): string => new Date().toISOString();

/** Makes later IDs sort after a restored one (the counter restarts with the process). */
function observeId(id: string): void {
  const n = parseInt(id.slice(id.lastIndexOf('_') + 1, id.lastIndexOf('_') + 9), 36);
  if (Number.isSafeInteger(n) && n > seq) seq = n;
}

interface Stamp<T> {
  t: number;
  rec: T;
  n: number;
}

/**
 * The records by `updated_at`: an append-only log of each insert and touch, in time order, where only a record's
 * latest entry counts. `updated_at_gt` then costs the records changed since, not a scan of the collection.
 */
class UpdatedIndex<T extends Rec> {
  private log: Stamp<T>[] = [];
  private readonly latest = new Map<string, number>();
  private n = 0;
  private dirty = false;

  note(rec: T): void {
    const t = Date.parse(rec.updated_at);
    const last = this.log[this.log.length - 1];
    // A clock step backwards (or a restored snapshot) breaks the order: rebuilt on the next read.
    if (last && t < last.t) this.dirty = true;
    this.log.push({ t, rec, n: ++this.n });
    this.latest.set(rec.id, this.n);
  }

  forget(id: string): void {
    this.latest.delete(id);
  }

  /** Rebuilds from the records when out of order or mostly stale entries. */
  private tidy(items: Map<string, T>): void {
    if (!this.dirty && this.log.length <= 2 * items.size + 1024 && this.latest.size === items.size) return;
    this.log = [];
    this.latest.clear();
    this.dirty = false;
    const sorted = [...items.values()].sort((a, b) => Date.parse(a.updated_at) - Date.parse(b.updated_at));
    for (const rec of sorted) this.note(rec);
  }

  /** How many log entries fall in [from, to] (an upper bound of the records there), without visiting them. */
  span(items: Map<string, T>, from: number, to: number): number {
    this.tidy(items);
    return this.upper(to) - this.lower(from);
  }

  /** The records whose `updated_at` is in [from, to], each once. */
  between(items: Map<string, T>, from: number, to: number, visit: () => void): T[] {
    this.tidy(items);
    const out: T[] = [];
    for (let i = this.lower(from), end = this.upper(to); i < end; i++) {
      visit();
      const e = this.log[i];
      if (this.latest.get(e.rec.id) === e.n) out.push(e.rec);
    }
    return out;
  }

  /** The first entry at or after `t`. */
  private lower(t: number): number {
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.log[mid].t < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first entry after `t`. */
  private upper(t: number): number {
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.log[mid].t <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** One resource's records, in creation order, indexed by time for list filters. */
export class Collection<T extends Rec = Rec> {
  readonly items = new Map<string, T>();
  /** The records in creation order, rebuilt only after a delete or a restore (list pages index into it). */
  private order?: T[];
  readonly updated = new UpdatedIndex<T>();
  /** Records looked at by list pages, so a test can show a page costs its own records, not the collection. */
  visited = 0;
  constructor(
    readonly prefix: string,
    readonly label: string,
  ) {}

  insert(fields: Omit<T, 'id' | 'created_at' | 'updated_at'> & Partial<Rec>): T {
    const at = nowIso();
    const rec = { id: newId(this.prefix), created_at: at, updated_at: at, ...fields } as T;
    this.items.set(rec.id, rec);
    this.order?.push(rec);
    this.updated.note(rec);
    return rec;
  }

  /** A record from a snapshot, as it was saved. */
  restore(rec: T): void {
    observeId(rec.id);
    this.items.set(rec.id, rec);
    this.order = undefined;
    this.updated.note(rec);
  }

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  /** The record, or 404 resource_not_found_error. */
  must(id: string): T {
    return this.items.get(id) ?? notFound(this.label, id);
  }

  /** Applies `changes` and stamps `updated_at` (now, or `at`: a hand-built history dates its session's last change). */
  touch(rec: T, changes: Partial<T>, at = nowIso()): T {
    Object.assign(rec, changes, { updated_at: at });
    if (this.items.get(rec.id) === rec) this.updated.note(rec);
    return rec;
  }

  /** Sets `archived_at` once: archiving again changes nothing (docs/service.md: common shapes). */
  archive(rec: T): T {
    if (!rec.archived_at) this.touch(rec, { archived_at: nowIso() } as unknown as Partial<T>);
    return rec;
  }

  delete(id: string): boolean {
    this.order = undefined;
    this.updated.forget(id);
    return this.items.delete(id);
  }

  values(): T[] {
    return [...this.items.values()];
  }

  /** The records in creation order (which is ID order), shared between calls: never mutate it. */
  ordered(): readonly T[] {
    if (this.order?.length !== this.items.size) this.order = this.values();
    return this.order;
  }
}

export interface PageResult<T> {
  items: T[];
  next_page_token: string | null;
}

/** Reads `page_size` (1..1000, default 50), 400 with param query.page_size otherwise. */
export function pageSize(q: URLSearchParams): number {
  const raw = q.get('page_size');
  if (raw === null) return LIMITS.pageSizeDefault;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < LIMITS.pageSizeMin || n > LIMITS.pageSizeMax) {
    invalidParam('query.page_size', `page_size must be an integer from ${LIMITS.pageSizeMin} to ${LIMITS.pageSizeMax}`);
  }
  return n;
}

/** Pages `sorted` with an opaque token naming the last key returned and its position. */
export function paginate<T>(sorted: readonly T[], q: URLSearchParams, keyOf: (t: T) => string = (t) => (t as Rec).id): PageResult<T> {
  const size = pageSize(q);
  const start = startAfter(sorted, q, keyOf);
  const items = sorted.slice(start, start + size);
  const more = start + size < sorted.length;
  return { items, next_page_token: more ? encodeToken(keyOf(items[items.length - 1]), start + items.length - 1) : null };
}

/** Where the page after the token starts: the token's position when its key is still there, else by key order. */
function startAfter<T>(sorted: readonly T[], q: URLSearchParams, keyOf: (t: T) => string): number {
  const token = q.get('page_token');
  if (token === null || token === '') return 0;
  const { key: after, at } = decodePosition(token);
  if (at !== undefined && at < sorted.length && keyOf(sorted[at]) === after) return at + 1;
  const i = sorted.findIndex((t) => keyOf(t) === after);
  if (i >= 0) return i + 1;
  // A deleted anchor: continue after where it would have been, by creation-ordered key.
  const start = sorted.findIndex((t) => (keyOf(sorted[0]) <= keyOf(sorted[sorted.length - 1]) ? keyOf(t) > after : keyOf(t) < after));
  return start < 0 ? sorted.length : start;
}

/** The 200 answer of a list endpoint: one page of `items`, each shown through `view` (default: without `_` members). */
export function listReply<T>(
  items: T[],
  q: URLSearchParams,
  view: (t: T) => unknown = (t) => publicView(t as Record<string, any>),
  keyOf?: (t: T) => string,
): { status: 200; body: PageResult<unknown> } {
  const page = paginate(items, q, keyOf);
  return { status: 200, body: { ...page, items: page.items.map((t) => view(t)) } };
}

/** A page token: the last key returned and, for positional paging, the index it stood at. */
export function encodeToken(key: string, at?: number): string {
  return Buffer.from(JSON.stringify(at === undefined ? { a: key } : { a: key, i: at })).toString('base64url');
}

export function decodeToken(token: string): string {
  return decodePosition(token).key;
}

export function decodePosition(token: string): { key: string; at?: number } {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { a?: unknown; i?: unknown };
    if (typeof v.a === 'string') return { key: v.a, at: Number.isSafeInteger(v.i) && (v.i as number) >= 0 ? (v.i as number) : undefined };
  } catch {
    // fall through
  }
  return invalidParam('query.page_token', 'page_token is not a token this service issued');
}

/** Archived rows are hidden unless `include_archived=true` (docs/service.md: common shapes). */
export function visible<T extends Rec>(items: T[], q: URLSearchParams): T[] {
  return q.get('include_archived') === 'true' ? items : items.filter((r) => !r.archived_at);
}

/** A copy without the members the emulator keeps for itself (names starting with `_`). */
export function publicView<T extends Record<string, any>>(rec: T): T {
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(rec)) if (!k.startsWith('_')) out[k] = v;
  return out as T;
}
