// Lists over whole collections: newest first, archived rows hidden unless asked for, and the spec's time filters
// answered from the collection's indexes so a page costs about its own records even at 100 000 sessions.
import { decodePosition, encodeToken, pageSize, paginate, publicView, type Collection, type PageResult, type Rec } from './store';
import { queryBool, queryTime } from './validate';

/** Inclusive bounds in milliseconds; records carry millisecond times, so `gt X` is `>= X + 1`. */
type Range = [number, number];

interface TimeBounds {
  created?: Range;
  updated?: Range;
}

/** The `created_at_*` / `updated_at_*` filters as ranges (each checked, 400 naming the parameter when malformed). */
function timeBounds(q: URLSearchParams): TimeBounds {
  const out: TimeBounds = {};
  for (const field of ['created', 'updated'] as const) {
    let lo = -Infinity;
    let hi = Infinity;
    const at = (op: string) => queryTime(q, `${field}_at_${op}`);
    const gt = at('gt');
    const gte = at('gte');
    const lt = at('lt');
    const lte = at('lte');
    if (gt !== undefined) lo = Math.max(lo, gt + 1);
    if (gte !== undefined) lo = Math.max(lo, gte);
    if (lt !== undefined) hi = Math.min(hi, lt - 1);
    if (lte !== undefined) hi = Math.min(hi, lte);
    if (lo !== -Infinity || hi !== Infinity) out[field] = [lo, hi];
  }
  return out;
}

const inRange = (iso: string, r: Range | undefined): boolean => {
  if (!r) return true;
  const t = Date.parse(iso);
  return t >= r[0] && t <= r[1];
};

/** The first position in creation order whose `created_at` is at or after `t` (creation times never go down). */
function firstCreatedAtOrAfter(all: readonly Rec[], t: number): number {
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Date.parse(all[mid].created_at) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many records sort before `id` (IDs sort in creation order), by bisection. */
function positionOf(all: readonly Rec[], id: string): number {
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (all[mid].id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface ListOptions<T> {
  /** Extra conditions of the list (official_only, a category). */
  keep?: (t: T) => boolean;
  /** The list takes the time filters: agents and sessions in the spec, and the lists docs/behaviour.md selects by time. */
  timeFilters?: boolean;
  view?: (t: T) => unknown;
}

/**
 * One page of a collection, newest first. With an `updated_at` bound narrower than the `created_at` range, the
 * records come from the updated-time index (a watch polling `updated_at_gt` costs the changed records); else the
 * page walks back from the token's position in creation order.
 */
export function pageNewest<T extends Rec>(coll: Collection<T>, q: URLSearchParams, o: ListOptions<T> = {}): PageResult<T> {
  const size = pageSize(q);
  const archived = queryBool(q, 'include_archived') ?? false;
  const bounds = o.timeFilters ? timeBounds(q) : {};
  const all = coll.ordered();
  const from = bounds.created ? firstCreatedAtOrAfter(all, bounds.created[0]) : 0;
  const to = bounds.created ? firstCreatedAtOrAfter(all, bounds.created[1] + 1) : all.length;
  const shown = (t: T): boolean => (archived || !t.archived_at) && (o.keep?.(t) ?? true);

  const updated = bounds.updated;
  if (updated && coll.updated.span(coll.items, updated[0], updated[1]) < to - from) {
    const changed = coll.updated
      .between(coll.items, updated[0], updated[1], () => coll.visited++)
      .filter((t) => inRange(t.created_at, bounds.created) && shown(t))
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    return paginate(changed, q);
  }

  const keep = (t: T): boolean => {
    coll.visited++;
    return inRange(t.updated_at, updated) && shown(t);
  };
  const items: T[] = [];
  let i = Math.min(startBefore(all, q), to - 1);
  let last = -1;
  for (; i >= from && items.length < size; i--) {
    if (keep(all[i])) {
      items.push(all[i]);
      last = i;
    }
  }
  while (i >= from && !keep(all[i])) i--;
  return { items, next_page_token: i >= from ? encodeToken(all[last].id, last) : null };
}

/** Where a newest-first page after the token starts: just before the token's record, found by position or by ID. */
function startBefore(all: readonly Rec[], q: URLSearchParams): number {
  const token = q.get('page_token');
  if (token === null || token === '') return all.length - 1;
  const { key, at } = decodePosition(token);
  if (at !== undefined && at < all.length && all[at].id === key) return at - 1;
  return positionOf(all, key) - 1;
}

/** The 200 answer of a collection-wide list (pageNewest), each record shown through `view`. */
export function listNewest<T extends Rec>(coll: Collection<T>, q: URLSearchParams, o: ListOptions<T> = {}): { status: 200; body: PageResult<unknown> } {
  const page = pageNewest(coll, q, o);
  const view = o.view ?? ((t: T) => publicView(t));
  return { status: 200, body: { ...page, items: page.items.map(view) } };
}

/** Records of a sub-list (a session's threads, a vault's credentials) newest first. */
export const newestFirst = <T extends Rec>(items: T[]): T[] => [...items].sort((a, b) => (a.id < b.id ? 1 : -1));
