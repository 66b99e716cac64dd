import type { Command } from 'commander';
import type { Query } from '../../api/client';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import type { ListOptions } from '../../api/paginate';
import { examples, type Flags, type Kit } from '../../cli/action';
import { addListFlags, filterQuery, listOptions, printList, TIME_FILTERS, type ListPage } from '../../cli/verbs/resource';
import { parseWatch, type WatchPlan } from '../../cli/verbs/selector-list';
import { parseSelectors, selectSessions, sessionSelection, type SessionSelectors } from '../../selection/selectors';
import { PageCount, sayPagesRead } from '../../selection/select';
import { sessionColumns } from './columns';
import { addSelectorFlags } from './selectors';

const DEFAULT_INTERVAL = '2s';

/** `svc sessions list [selectors] [-w]`: the time selectors go to the service, the rest are applied while paging. */
export function addList(group: Command, kit: Kit): Command {
  const cmd = group.command('list').description('List sessions, optionally selected (--status, --agent, -l, …) and watched (-w)');
  addSelectorFlags(cmd, { includeArchived: true });
  for (const f of TIME_FILTERS) cmd.option(f.flags, f.description);
  addListFlags(cmd)
    .option('-w, --watch', 'print the list, then every change (ADDED, MODIFIED, DELETED), through outages, until Ctrl-C, SIGTERM or --timeout')
    .option('--interval <duration>', `with --watch: how often to poll (default ${DEFAULT_INTERVAL})`)
    .option('--timeout <duration>', 'with --watch: stop after this long (exit 0; at most 24d)');
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

export function parseSessionsList(_args: string[], flags: Flags): SessionsListOptions {
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
