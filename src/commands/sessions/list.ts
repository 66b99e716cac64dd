import type { Command } from 'commander';
import type { Query } from '../../api/client';
import { sessions } from '../../api/sessions';
import { UsageError } from '../../errors';
import type { Ctx } from '../../context';
import { examples, type Kit, type Opts } from '../../cli/action';
import { addListFlags, filterQuery, listOptions, printList, TIME_FILTERS } from '../../cli/verbs/resource';
import { parseDuration } from '../../fleet/duration';
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
      if (opts.watch) {
        if (opts.limit !== undefined || opts.pageToken !== undefined)
          throw new UsageError('--limit and --page-token cannot be used with --watch: it lists everything selected');
        return runWatchList(ctx, cmd, opts, sel, extra);
      }
      if (opts.interval !== undefined) throw new UsageError('--interval works with --watch');
      // Its own --timeout bounds a watch; a list's requests are bounded by --request-timeout.
      if (opts.timeout !== undefined) throw new UsageError('--timeout works with --watch; for a time limit on each request use --request-timeout');
      const lo = listOptions(opts);
      const c = await ctx.api();
      const now = ctx.now();
      await printList(ctx, lo, (l) => selectSessions(c, sel, now, l, extra), sessionColumns);
    }),
  );
}

async function runWatchList(ctx: Ctx, cmd: Command, opts: Opts, sel: ReturnType<typeof parseSelectors>, extra: Query): Promise<void> {
  const intervalMs = parseDuration(opts.interval ?? DEFAULT_INTERVAL, '--interval');
  const timeout: string | undefined = opts.timeout;
  const timeoutMs = timeout === undefined ? undefined : parseDuration(timeout, '--timeout');
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
