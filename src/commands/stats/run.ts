/** `svc stats`: the selected sessions' figures, each history read once (or taken from the cache), summed per group. */
import type { Ctx } from '../../runtime/context';
import { pausingClient } from '../../bulk/execute';
import { AgentNames } from '../../selection/agent-names';
import { SharedPause } from '../../bulk/pause';
import { selectSessions } from '../../selection/selectors';
import { PageCount, SELECT_PAGE, sayPagesRead } from '../../selection/select';
import { write } from '../../runtime/io';
import { StatsCache } from '../../stats/cache';
import { Groups } from '../../stats/group';
import { tallyFleet } from '../../stats/read';
import { fleetText } from '../../stats/text';
import type { StatsOptions } from './index';

export async function runStats(ctx: Ctx, o: StatsOptions): Promise<void> {
  const pause = new SharedPause(ctx.sleep, ctx.now);
  const c = await pausingClient(ctx, pause, false);
  const now = ctx.now();
  // The service's own filter: a session with no change since then has no event since then.
  const extra = o.sinceMs === undefined ? {} : { updated_at_gt: new Date(now - o.sinceMs).toISOString() };
  const groups = new Groups(o.by);
  const cache = o.cache ? StatsCache.open(ctx.io.env) : undefined;
  let counts;
  const pages = new PageCount();
  try {
    const listed = selectSessions(c, o.selectors, now, { all: true, pageSize: SELECT_PAGE, onPage: pages.onPage, signal: ctx.io.signal }, extra);
    counts = await tallyFleet(c, listed, { pause, concurrency: o.concurrency, cache, base: ctx.settings.baseUrl.value, onTally: (s, t) => groups.add(s, t) });
  } finally {
    cache?.close();
  }
  await sayPagesRead(ctx, pages, counts.read + counts.cached + counts.vanished);
  if (counts.vanished) await ctx.msg(`${counts.vanished} session${counts.vanished === 1 ? '' : 's'} went away before their history was read; left out`);
  if (ctx.format !== 'table' || ctx.settings.jq) return ctx.out.list(groups.figures(), []);
  let label = (g: { group: string }) => g.group;
  if (o.by.kind === 'agent') {
    const names = new AgentNames(c);
    await names.load(groups.keys);
    label = (g) => (names.nameOf(g.group) ? `${names.nameOf(g.group)} (${g.group})` : g.group);
  }
  const tty = Boolean(ctx.io.stdout.isTTY);
  // -o wide: every column, whole, as the tables print it (docs/decisions/tables.md).
  const width = tty && ctx.settings.table.columns === 'default' ? ctx.io.stdout.columns : undefined;
  await write(ctx.io.stdout, fleetText(groups.figures(), label, { width, header: (h) => h }, tty));
  if (tty) await ctx.msg(`${counts.read + counts.cached} sessions: ${counts.read} histories read, ${counts.cached} from the cache`);
}
