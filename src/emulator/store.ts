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
  constructor(readonly prefix: string, readonly label: string) {}

  insert(fields: Omit<T, 'id' | 'created_at' | 'updated_at'> & Partial<Rec>): T {
    const at = nowIso();
    const rec = { id: newId(this.prefix), created_at: at, updated_at: at, ...fields } as T;
    this.items.set(rec.id, rec);
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
    return this.items.delete(id);
  }

  values(): T[] {
    return [...this.items.values()];
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

/** Pages `sorted` with an opaque token naming the last key returned (R-PAGE-1, R-PAGE-4). */
export function paginate<T>(sorted: T[], q: URLSearchParams, keyOf: (t: T) => string = (t) => (t as Rec).id): PageResult<T> {
  const size = pageSize(q);
  let start = 0;
  const token = q.get('page_token');
  if (token !== null && token !== '') {
    const after = decodeToken(token);
    const i = sorted.findIndex((t) => keyOf(t) === after);
    // A deleted anchor: continue after where it would have been, by creation-ordered key.
    start = i >= 0 ? i + 1 : sorted.findIndex((t) => (keyOf(sorted[0]) <= keyOf(sorted[sorted.length - 1]) ? keyOf(t) > after : keyOf(t) < after));
    if (start < 0) start = sorted.length;
  }
  const items = sorted.slice(start, start + size);
  const more = start + size < sorted.length;
  return { items, next_page_token: more ? encodeToken(keyOf(items[items.length - 1])) : null };
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

export function encodeToken(key: string): string {
  return Buffer.from(JSON.stringify({ a: key })).toString('base64url');
}

export function decodeToken(token: string): string {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { a?: unknown };
    if (typeof v.a === 'string') return v.a;
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
  let out = items;
  for (const field of ['created_at', 'updated_at'] as const) {
    for (const [op, test] of TIME_OPS) {
      const bound = queryTime(q, `${field}_${op}`);
      if (bound !== undefined) out = out.filter((r) => test(Date.parse(r[field]), bound));
    }
  }
  return out;
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
