import { randomBytes } from 'node:crypto';
import { LIMITS } from '../wire/limits';
import { invalidParam, notFound } from './errors';
import { queryTime } from './validate';

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

/** One resource's records, in creation order. */
export class Collection<T extends Rec = Rec> {
  readonly items = new Map<string, T>();
  /** The records in creation order, rebuilt only after an insert or delete (list pages index into it). */
  private order?: { version: number; items: T[] };
  private version = 0;
  constructor(
    readonly prefix: string,
    readonly label: string,
  ) {}

  insert(fields: Omit<T, 'id' | 'created_at' | 'updated_at'> & Partial<Rec>): T {
    const at = nowIso();
    const rec = { id: newId(this.prefix), created_at: at, updated_at: at, ...fields } as T;
    this.items.set(rec.id, rec);
    this.version++;
    return rec;
  }

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  /** The record, or 404 resource_not_found_error. */
  must(id: string): T {
    return this.items.get(id) ?? notFound(this.label, id);
  }

  touch(rec: T, changes: Partial<T>): T {
    Object.assign(rec, changes, { updated_at: nowIso() });
    return rec;
  }

  /** Sets `archived_at` once: archiving again changes nothing (API-NOTES: common shapes). */
  archive(rec: T): T {
    if (!rec.archived_at) this.touch(rec, { archived_at: nowIso() } as unknown as Partial<T>);
    return rec;
  }

  delete(id: string): boolean {
    this.version++;
    return this.items.delete(id);
  }

  values(): T[] {
    return [...this.items.values()];
  }

  /** The records in creation order, shared between calls: never mutate it. */
  ordered(): readonly T[] {
    // The size check also catches records put into `items` directly (a restored state).
    if (this.order?.version !== this.version || this.order.items.length !== this.items.size) this.order = { version: this.version, items: this.values() };
    return this.order.items;
  }
}

export interface PageResult<T> {
  items: T[];
  next_page_token: string | null;
}

/** Reads `page_size` (1..1000, default 50), 400 with param query.page_size otherwise (R-PAGE-2, R-PAGE-3). */
export function pageSize(q: URLSearchParams): number {
  const raw = q.get('page_size');
  if (raw === null) return LIMITS.pageSizeDefault;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < LIMITS.pageSizeMin || n > LIMITS.pageSizeMax) {
    invalidParam('query.page_size', `page_size must be an integer from ${LIMITS.pageSizeMin} to ${LIMITS.pageSizeMax}`);
  }
  return n;
}

/** Pages `sorted` with an opaque token naming the last key returned and its position (R-PAGE-1, R-PAGE-4). */
export function paginate<T>(sorted: readonly T[], q: URLSearchParams, keyOf: (t: T) => string = (t) => (t as Rec).id): PageResult<T> {
  const size = pageSize(q);
  const start = startAfter(sorted, q, keyOf);
  const items = sorted.slice(start, start + size);
  const more = start + size < sorted.length;
  return { items, next_page_token: more ? encodeToken(keyOf(items[items.length - 1]), start + items.length - 1) : null };
}

/**
 * Pages a collection's records in creation order that pass `keep`, by position: the token names the last record
 * returned and where it stood, so a page costs its own records (and the filtered-out ones between them), not a scan
 * of the collection from the start (`list --all` over 100k records).
 */
export function pageOrdered<T extends Rec>(coll: Collection<T>, q: URLSearchParams, keep: (t: T) => boolean): PageResult<T> {
  const size = pageSize(q);
  const all = coll.ordered();
  const items: T[] = [];
  let i = startAfter(all, q, (t) => t.id);
  let last = -1;
  for (; i < all.length && items.length < size; i++) {
    if (keep(all[i])) {
      items.push(all[i]);
      last = i;
    }
  }
  while (i < all.length && !keep(all[i])) i++;
  return { items, next_page_token: i < all.length ? encodeToken(all[last].id, last) : null };
}

/** The 200 answer of a list endpoint over a whole collection in creation order (pageOrdered). */
export function listOrdered<T extends Rec>(coll: Collection<T>, q: URLSearchParams, keep: (t: T) => boolean): { status: 200; body: PageResult<unknown> } {
  const page = pageOrdered(coll, q, keep);
  return { status: 200, body: { ...page, items: page.items.map((t) => publicView(t)) } };
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

function decodePosition(token: string): { key: string; at?: number } {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { a?: unknown; i?: unknown };
    if (typeof v.a === 'string') return { key: v.a, at: Number.isSafeInteger(v.i) && (v.i as number) >= 0 ? (v.i as number) : undefined };
  } catch {
    // fall through
  }
  return invalidParam('query.page_token', 'page_token is not a token this service issued');
}

const TIME_OPS: Array<[string, (a: number, b: number) => boolean]> = [
  ['gt', (a, b) => a > b],
  ['gte', (a, b) => a >= b],
  ['lt', (a, b) => a < b],
  ['lte', (a, b) => a <= b],
];

/** The `created_at_*` / `updated_at_*` filters: gt/lt exclude the bound, gte/lte include it (R-PAGE-9). */
export function filterTime<T extends Rec>(items: T[], q: URLSearchParams): T[] {
  const tests = timeTests(q);
  return tests.length ? items.filter((r) => tests.every((t) => t(r))) : items;
}

function timeTests(q: URLSearchParams): Array<(r: Rec) => boolean> {
  const tests: Array<(r: Rec) => boolean> = [];
  for (const field of ['created_at', 'updated_at'] as const) {
    for (const [op, test] of TIME_OPS) {
      const bound = queryTime(q, `${field}_${op}`);
      if (bound !== undefined) tests.push((r) => test(Date.parse(r[field]), bound));
    }
  }
  return tests;
}

/** `visible` and `filterTime` as one test per record, for paging a collection in place (pageOrdered). */
export function listed(q: URLSearchParams): (r: Rec) => boolean {
  const archived = q.get('include_archived') === 'true';
  const tests = timeTests(q);
  return (r) => (archived || !r.archived_at) && tests.every((t) => t(r));
}

/** Archived rows are hidden unless `include_archived=true` (API-NOTES: common shapes). */
export function visible<T extends Rec>(items: T[], q: URLSearchParams): T[] {
  return q.get('include_archived') === 'true' ? items : items.filter((r) => !r.archived_at);
}

/** A copy without the members the emulator keeps for itself (names starting with `_`). */
export function publicView<T extends Record<string, any>>(rec: T): T {
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(rec)) if (!k.startsWith('_')) out[k] = v;
  return out as T;
}
