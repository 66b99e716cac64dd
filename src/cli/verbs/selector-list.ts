import type { Command } from 'commander';
import type { Query } from '../../api/client';
import type { ListOptions } from '../../api/paginate';
import type { Obj } from '../../api/resources';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import type { Column } from '../../output/table';
import { examples, type Flags, type Kit } from '../action';
import { addFlags, type FlagsOf } from '../flags';
import { LIST_FLAGS, filterQuery, listFilters, listOptions, printList, type ListFilter, type ListPage } from './list';
import type { ResourceSpec } from './spec';
import { parseDuration } from '../../text/duration';
import { DEFAULT_INTERVAL, resourceSelectorFlags, WATCH_FLAGS } from './selection-flags';
import { matcher, parseResourceSelectors, selectResources, serviceQuery, type SessionSelectors } from '../../selection/selectors';
import { watchCell, type WatchCell } from '../../watch/rows';

/** Pages of the largest size the service serves: a watch lists everything selected. */
const WATCH_PAGE = 1000;

/** How a watch runs, checked before any request. */
export interface WatchPlan {
  intervalMs: number;
  timeoutMs?: number;
}

/** The watch flags, checked: none of them without `--watch`, and no paging flag with it (exit 2). */
export function parseWatch(flags: FlagsOf<typeof WATCH_FLAGS>): WatchPlan | undefined {
  const { interval, timeout } = flags;
  if (!flags.watch) {
    if (interval !== undefined) throw new UsageError('--interval works with --watch');
    if (timeout !== undefined)
      throw new UsageError('--timeout after list bounds --watch: for a per-request timeout use --request-timeout, or put --timeout before the verb');
    return undefined;
  }
  if (flags.limit !== undefined || flags.pageToken !== undefined)
    throw new UsageError('--limit and --page-token cannot be used with --watch: it lists everything selected');
  if (flags.sortBy !== undefined) throw new UsageError('--sort-by sorts a listing: --watch prints each change as it comes');
  return {
    intervalMs: parseDuration(interval ?? DEFAULT_INTERVAL, '--interval'),
    timeoutMs: timeout === undefined ? undefined : parseDuration(timeout, '--timeout'),
  };
}

/** The watch rows of a resource: its default table columns without the times (AGE follows them). */
export function watchCells(columns: Column[]): WatchCell[] {
  return columns.filter((c) => !c.wide && !['CREATED', 'UPDATED', 'ARCHIVED'].includes(c.header)).map(watchCell);
}

/** `svc GROUP list [-l …] [--older-than D] [--newer-than D] [-w]`, parsed. */
export interface SelectableListOptions {
  resource: ResourceSpec;
  /** The list's own filters (`--official-only`, `--agent`, the `--created-after` family). */
  query: Query;
  selectors: SessionSelectors;
  page: ListPage;
  watch?: WatchPlan;
}

export function parseSelectableList(resource: ResourceSpec, filters: ListFilter[], flags: Flags): SelectableListOptions {
  const selectors = parseResourceSelectors(flags);
  const watch = parseWatch(flags);
  return { resource, query: filterQuery(filters, flags), selectors, page: listOptions(flags), watch };
}

export async function runSelectableList(ctx: Ctx, o: SelectableListOptions): Promise<void> {
  const c = await ctx.api();
  const list = (q: Query, lo: ListOptions): AsyncIterable<Obj> => o.resource.api.list(c, q, lo);
  if (!o.watch)
    return printList(ctx, o.page, (lo) => selectResources(list, o.selectors, ctx.now(), lo, o.query), o.resource.namedColumns ?? o.resource.columns);
  const { runWatchView } = await import('../../watch/rows');
  await runWatchView(ctx, {
    list: (q) => list(q, { all: true, pageSize: o.page.pageSize ?? WATCH_PAGE }),
    query: { ...o.query, ...serviceQuery(o.selectors, ctx.now()) },
    match: matcher(o.selectors),
    includeArchived: o.query.include_archived === true,
    intervalMs: o.watch.intervalMs,
    timeoutMs: o.watch.timeoutMs,
    cells: watchCells(o.resource.columns),
    columns: o.resource.columns,
  });
}

/** A resource's `list` with the list flags, its own filters, the selectors and `--watch`. */
export function addSelectableList(group: Command, kit: Kit, spec: ResourceSpec, extra: { examples: string[] }): Command {
  const filters = listFilters(spec.api.entry);
  const cmd = group.command('list').description(`List ${spec.group}, optionally selected (-l, --older-than, --newer-than) and watched (-w)`);
  addFlags(cmd, filters);
  addFlags(cmd, { ...resourceSelectorFlags(`${spec.noun}s`), ...LIST_FLAGS, ...WATCH_FLAGS });
  examples(cmd, extra.examples);
  return cmd.action(kit.verb((_args, flags) => parseSelectableList(spec, filters, flags), runSelectableList));
}
