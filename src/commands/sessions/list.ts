import type { Command } from 'commander';
import type { Query } from '../../api/client';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import type { ListOptions } from '../../api/paginate';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { filterQuery, listOptions, printList, TIME_FILTERS, type ListPage } from '../../cli/verbs/resource';
import { LIST_FLAGS } from '../../cli/verbs/list';
import { WATCH_FLAGS } from '../../cli/verbs/selection-flags';
import { parseWatch, type WatchPlan } from '../../cli/verbs/selector-list';
import { parseSelectors, selectSessions, sessionSelection, type SessionSelectors } from '../../selection/selectors';
import { PageCount, sayPagesRead } from '../../selection/select';
import { sessionColumns } from './columns';
import { INCLUDE_ARCHIVED_FLAGS, SELECTOR_FLAGS } from './selectors';

/** `svc sessions list`'s flags: the selectors, the `--created-after` family, the list flags and the watch flags. */
export const SESSION_LIST_FLAGS = flagTable({
  ...SELECTOR_FLAGS,
  ...INCLUDE_ARCHIVED_FLAGS,
  // The `--created-after` family, entry by entry (addFlags checks each key against its entry's flag).
  createdAfter: TIME_FILTERS[0],
  createdBefore: TIME_FILTERS[1],
  updatedAfter: TIME_FILTERS[2],
  updatedBefore: TIME_FILTERS[3],
  ...LIST_FLAGS,
  ...WATCH_FLAGS,
});

/** `svc sessions list [selectors] [-w]`: the time selectors go to the service, the rest are applied while paging. */
export function addList(group: Command, kit: Kit): Command {
  const cmd = group.command('list').description('List sessions, optionally selected (--status, --agent, -l, …) and watched (-w)');
  addFlags(cmd, SESSION_LIST_FLAGS);
  examples(cmd, [
    'svc sessions list',
    'svc sessions list --created-after 2026-01-01T00:00:00Z --all -o ndjson',
    'svc sessions list --status running --agent triage --all',
    "svc sessions list -l 'team=infra,!draft' --idle-for 7d -q",
    'svc sessions list --status running -w',
  ]);
  return cmd.action(kit.verb(parseSessionsList, runSessionsList));
}

/** `svc sessions list [selectors] [time filters] [list flags] [-w [--interval D] [--timeout D]]`. */
export interface SessionsListOptions {
  selectors: SessionSelectors;
  /** The time filters, sent to the service. */
  extra: Query;
  /** Set with --watch. */
  watch?: WatchPlan;
  list: ListPage;
}

export function parseSessionsList(_args: string[], flags: FlagsOf<typeof SESSION_LIST_FLAGS>): SessionsListOptions {
  const selectors = parseSelectors(flags);
  const extra = filterQuery(TIME_FILTERS, flags);
  const watch = parseWatch(flags);
  return { selectors, extra, watch, list: listOptions(flags) };
}

export async function runSessionsList(ctx: Ctx, o: SessionsListOptions): Promise<void> {
  if (o.watch) return runWatchList(ctx, o.watch, o.list, o.selectors, o.extra);
  const c = await ctx.api();
  const now = ctx.now();
  const count = new PageCount();
  let matched = 0;
  const counted = async function* (l: ListOptions) {
    for await (const s of selectSessions(c, o.selectors, now, { ...l, onPage: count.onPage, signal: ctx.io.signal }, o.extra)) {
      matched++;
      yield s;
    }
  };
  await printList(ctx, o.list, counted, sessionColumns);
  await sayPagesRead(ctx, count, matched);
}

async function runWatchList(ctx: Ctx, { intervalMs, timeoutMs }: WatchPlan, lo: ListOptions, sel: SessionSelectors, extra: Query): Promise<void> {
  const pageSize = lo.pageSize ?? 1000;
  const c = await ctx.api();
  const selection = await sessionSelection(c, sel, ctx.now(), extra, ctx.io.signal);
  const { runWatch } = await import('./watch');
  await runWatch(ctx, {
    list: (q) => selection.read(sessions.list(c, q, { all: true, pageSize })),
    query: selection.query,
    match: selection.match,
    includeArchived: Boolean(sel.includeArchived),
    intervalMs,
    timeoutMs,
  });
}
