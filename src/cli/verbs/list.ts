import type { Command } from 'commander';
import type { Query } from '../../api/client';
import type { ResourceEntry } from '../../api/manifest';
import type { ListOptions, ListRest } from '../../api/paginate';
import { parseCount } from '../../config/settings';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import type { Column } from '../../output/table';
import type { WireObject } from '../../wire/resources';
import { parsePath, sortByPath, type Path } from '../../output/path';
import { LIMITS } from '../../wire/limits';
import { examples, type Flags, type Kit } from '../action';
import { addFlags, flagName, flagTable, longFlag, type FlagSpec, type FlagsOf } from '../flags';
import { withAgentNames, type NamedColumns } from './agent-names';
import { pickable, type PickSource } from '../pick-arg';
import type { ResourceSpec } from './spec';

/** A list filter: a flag (declared from this entry) and the query parameter it sends. */
export interface ListFilter extends FlagSpec {
  query: string;
  /** Turns the option value into the query value. */
  map?: (v: any) => string | boolean | number;
}

/** `created/updated after/before` flags mapping to the spec's `*_gt` / `*_lt` time filters. */
export const TIME_FILTERS: ListFilter[] = [
  { flags: '--created-after <time>', description: 'created after this RFC 3339 time', query: 'created_at_gt' },
  { flags: '--created-before <time>', description: 'created before this RFC 3339 time', query: 'created_at_lt' },
  { flags: '--updated-after <time>', description: 'updated after this RFC 3339 time', query: 'updated_at_gt' },
  { flags: '--updated-before <time>', description: 'updated before this RFC 3339 time', query: 'updated_at_lt' },
];

/** A resource's list filters, from its manifest row: a flag without a value sends `true`. */
export function listFilters(entry: ResourceEntry): ListFilter[] {
  const own = (entry.filters ?? []).map((f): ListFilter => (f.flags.includes('<') ? { ...f } : { ...f, map: () => true }));
  return entry.timeFilters ? [...own, ...TIME_FILTERS] : own;
}

/** The flags every list has: --limit, --page-size, --page-token, --all, --sort-by. */
export const LIST_FLAGS = flagTable({
  limit: { flags: '--limit <n>', description: 'stop after N items' },
  pageSize: { flags: '--page-size <n>', description: 'items per request (1..1000)' },
  pageToken: { flags: '--page-token <token>', description: 'start from this page token' },
  all: { flags: '--all', description: 'follow next_page_token to the end' },
  sortBy: {
    flags: '--sort-by <path>',
    description: 'sort what was fetched (one page, or everything with --all) by a dotted path: .created_at, .metadata.team',
  },
});

/** The list flags, parsed: the paging the service is asked for, and the order svc prints what came back in. */
export interface ListPage extends ListOptions {
  sortBy?: Path;
}

/** The parse step of the list flags: counts and the sort path checked (exit 2), the rest as given. */
export function listOptions(flags: FlagsOf<typeof LIST_FLAGS>): ListPage {
  return {
    limit: flags.limit === undefined ? undefined : parseCount(String(flags.limit), '--limit', 1),
    pageSize: flags.pageSize === undefined ? undefined : parseCount(String(flags.pageSize), '--page-size', LIMITS.pageSizeMin, LIMITS.pageSizeMax),
    pageToken: flags.pageToken,
    all: Boolean(flags.all),
    ...(flags.sortBy === undefined ? {} : { sortBy: parsePath(String(flags.sortBy), '--sort-by') }),
  };
}

/** A listing in the `--sort-by` order: gathered first (sorting needs every item), else streamed as it comes. */
export async function sortedBy<T>(items: AsyncIterable<T> | Iterable<T>, page: ListPage): Promise<AsyncIterable<T> | Iterable<T>> {
  if (!page.sortBy) return items;
  const all: T[] = [];
  for await (const it of items) all.push(it);
  return sortByPath(all, page.sortBy);
}

export function filterQuery(filters: ListFilter[], flags: Flags): Query {
  const q: Query = {};
  for (const f of filters) {
    const v = flags[flagName(f)];
    if (v === undefined) continue;
    if (f.choices && !f.choices.includes(v as string)) throw new UsageError(`${longFlag(f)} must be one of ${f.choices.join(', ')} (got "${String(v)}")`);
    q[f.query] = f.map ? f.map(v) : (v as string);
  }
  return q;
}

/** `svc GROUP list`: the resource, the service's filters and the paging. */
export interface ListVerbOptions {
  resource: ResourceSpec;
  query: Query;
  page: ListPage;
}

export function parseList(resource: ResourceSpec, filters: ListFilter[], flags: Flags): ListVerbOptions {
  return { resource, query: filterQuery(filters, flags), page: listOptions(flags) };
}

export async function runList(ctx: Ctx, o: ListVerbOptions): Promise<void> {
  const c = await ctx.api();
  await printList(ctx, o.page, (lo) => o.resource.api.list(c, o.query, lo), o.resource.namedColumns ?? o.resource.columns);
}

export function addList(group: Command, kit: Kit, spec: ResourceSpec, extra: { examples?: string[] } = {}): Command {
  const filters = listFilters(spec.api.entry);
  const cmd = group.command('list').description(`List ${spec.group}`);
  addFlags(cmd, filters);
  addFlags(cmd, LIST_FLAGS);
  examples(cmd, extra.examples ?? [`svc ${spec.group} list`, `svc ${spec.group} list --all -o ndjson`]);
  return cmd.action(kit.verb((_args, flags) => parseList(spec, filters, flags), runList));
}

/** Each item of a listing passed through `f` as it streams (a secret dropped before printing). */
export async function* mapAsync<T, U>(items: AsyncIterable<T>, f: (t: T) => U): AsyncGenerator<U> {
  for await (const t of items) yield f(t);
}

/** Where a list under a parent gets its items, and how its rows look. */
export interface ChildListSource<T = WireObject> {
  columns: Column<T>[];
  items: (ctx: Ctx, parentId: string, lo: ListOptions) => Promise<AsyncIterable<T>>;
}

/** `svc GROUP VERB PARENT` listing what is under PARENT (`agents versions AGENT`, `threads list SESSION`). */
export interface ChildListOptions<T = WireObject> {
  source: ChildListSource<T>;
  parentId: string;
  page: ListPage;
}

export function parseChildList<T>(source: ChildListSource<T>, [parentId]: string[], flags: Flags): ChildListOptions<T> {
  return { source, parentId, page: listOptions(flags) };
}

export function runChildList<T>(ctx: Ctx, o: ChildListOptions<T>): Promise<void> {
  return printList(ctx, o.page, (lo) => o.source.items(ctx, o.parentId, lo), o.source.columns);
}

/** A list under a parent (`agents versions AGENT`, `threads list SESSION`): the list flags, examples, one call. */
export function addChildList<T>(
  group: Command,
  kit: Kit,
  o: ChildListSource<T> & {
    name: string;
    /** The parent's argument; `pick`: where a picker finds recent parents when it is missing on a terminal. */
    parent: { arg: string; description: string; pick?: PickSource };
    description: string;
    examples: string[];
  },
): Command {
  const cmd = group.command(o.name).argument(o.parent.arg, o.parent.description).description(o.description);
  if (o.parent.pick) pickable(cmd, o.parent.pick);
  addFlags(cmd, LIST_FLAGS);
  examples(cmd, o.examples);
  return cmd.action(kit.verb((args, flags) => parseChildList(o, args, flags), runChildList));
}

/**
 * Prints a listing. When it stopped with items left (one page, or --limit), one stderr line after it says how many
 * are left, when that is known, and how to get them: never on stdout, whatever the format.
 */
export async function printList<T>(
  ctx: Ctx,
  page: ListPage,
  items: (lo: ListOptions) => AsyncIterable<T> | Promise<AsyncIterable<T>>,
  columns: Column<T>[] | NamedColumns<T>,
): Promise<void> {
  let rest: ListRest | undefined;
  const { sortBy: _, ...lo } = page;
  const listed = await sortedBy(await items({ ...lo, onRest: (r) => (rest = r) }), page);
  if (Array.isArray(columns)) await ctx.out.list(listed, columns);
  else {
    const named = await withAgentNames(ctx, listed, columns);
    await ctx.out.list(named.items, named.columns);
  }
  if (rest) await ctx.msg(restLine(rest, lo));
}

/**
 * `3 more: use --all`, or `more: use --all, or --page-token T for the next page` when the count is unknown. With
 * --all already given, only --limit can have cut the list, and the line says so.
 */
export function restLine(rest: ListRest, lo: ListOptions = {}): string {
  const next = rest.nextPageToken === undefined ? '' : `, or --page-token ${rest.nextPageToken} for the next page`;
  const how = lo.all && lo.limit !== undefined ? `--limit ${lo.limit} stopped the listing` : 'use --all';
  return `${rest.more === undefined ? 'more' : `${rest.more} more`}: ${how}${next}`;
}
