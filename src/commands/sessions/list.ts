import type { Command } from 'commander';
import type { Query } from '../../api/client';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../context';
import { examples, type Kit, type Opts } from '../../cli/action';
import { addListFlags, filterQuery, listOptions, printList, TIME_FILTERS } from '../../cli/verbs/resource';
import { parseWatch, type WatchPlan } from '../../cli/verbs/fleet-list';
import { agentIdOf, matcher, parseSelectors, selectSessions, serviceQuery } from '../../fleet/select';
import { sessionColumns } from './columns';
import { addSelectorFlags } from './selectors';

const DEFAULT_INTERVAL = '2s';

/** `svc sessions list [selectors] [-w]`: the time selectors go to the service, the rest are applied while paging. */
export function addList(group: Command, kit: Kit): Command {
  const cmd = group.command('list').description('List sessions, optionally selected (--status, --agent, -l, …) and watched (-w)');
  addSelectorFlags(cmd, { includeArchived: true });
  for (const f of TIME_FILTERS) cmd.option(f.flags, f.description);
  addListFlags(cmd)
    .option('-w, --watch', 'print the list, then every change (ADDED, MODIFIED, DELETED) until Ctrl-C or --timeout')
    .option('--interval <duration>', `with --watch: how often to poll (default ${DEFAULT_INTERVAL})`)
    .option('--timeout <duration>', 'with --watch: stop after this long');
  examples(cmd, [
    'svc sessions list',
    'svc sessions list --created-after 2026-01-01T00:00:00Z --all -o ndjson',
    'svc sessions list --status running --agent triage --all',
    "svc sessions list -l 'team=infra,!draft' --idle-for 7d -q",
    'svc sessions list --status running -w',
  ]);
  return cmd.action(
    kit.action(async (ctx, _args, opts) => {
      const sel = parseSelectors(opts);
      const extra = filterQuery(TIME_FILTERS, opts);
      const plan = parseWatch(opts);
      if (plan) return runWatchList(ctx, plan, opts, sel, extra);
      const lo = listOptions(opts);
      const c = await ctx.api();
      const now = ctx.now();
      await printList(ctx, lo, (l) => selectSessions(c, sel, now, l, extra), sessionColumns);
    }),
  );
}

async function runWatchList(ctx: Ctx, { intervalMs, timeoutMs }: WatchPlan, opts: Opts, sel: ReturnType<typeof parseSelectors>, extra: Query): Promise<void> {
  const pageSize = listOptions(opts).pageSize ?? 1000;
  const c = await ctx.api();
  const test = matcher(sel, await agentIdOf(c, sel));
  const { runWatch } = await import('./watch');
  await runWatch(ctx, {
    list: (q) => sessions.list(c, q, { all: true, pageSize }),
    query: { ...extra, ...serviceQuery(sel, ctx.now()) },
    match: test,
    includeArchived: Boolean(sel.includeArchived),
    intervalMs,
    timeoutMs,
  });
}
