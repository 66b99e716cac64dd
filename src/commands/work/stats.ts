import type { ApiClient } from '../../api/client';
import { environments } from '../../api/environments';
import { work, type WorkItem } from '../../api/work';
import { listInParent } from '../../cli/verbs/parent';
import type { Ctx } from '../../runtime/context';
import { InterruptedError, UsageError } from '../../runtime/errors';
import type { WorkStatsOptions } from './stats-parse';
import { write } from '../../runtime/io';
import { sleep } from '../../async/sleep';
import type { Column } from '../../output/table';
import { countWorkRow, emptyQueueCounts, workRow } from '../../top/rows';
import { workClient } from './credential';

/** What `svc work stats` prints, and `--serve` answers (KEDA's metrics-api scaler reads a member: `demand`, `queued`). */
export interface QueueStats {
  environment_id: string;
  queued: number;
  leased: number;
  stale: number;
  /** Rows that want a worker now: queued and leased. */
  demand: number;
  oldest_queued_age_seconds: number | null;
  by_status: Record<string, number>;
  rows: number;
  observed_at: string;
}

/** The largest page the service gives: the fewest requests for one pass. */
const PAGE_SIZE = 1000;

export const STATS_COLUMNS: Column<QueueStats>[] = [
  { header: 'ENVIRONMENT', get: (s) => s.environment_id },
  { header: 'QUEUED', get: (s) => s.queued },
  { header: 'LEASED', get: (s) => s.leased },
  { header: 'STALE', get: (s) => s.stale },
  { header: 'OLDEST QUEUED', get: (s) => (s.oldest_queued_age_seconds === null ? '–' : `${s.oldest_queued_age_seconds}s`) },
  { header: 'DEMAND', get: (s) => s.demand },
  { header: 'ROWS', get: (s) => s.rows },
];

/**
 * One pass over the environment's rows, page by page (one request a page, {@link PAGE_SIZE} rows each), counted as
 * they stream by: memory does not grow with the queue. `svc top`'s work view counts with the same countWorkRow.
 */
export async function queueStats(c: ApiClient, envRef: string, now: () => number): Promise<QueueStats> {
  let envId = envRef;
  const rows = await listInParent(c, environments, envRef, (id) => {
    envId = id;
    return work.list(c, id, {}, { all: true, pageSize: PAGE_SIZE });
  });
  const counts = emptyQueueCounts();
  const at = now();
  for await (const item of rows as AsyncIterable<WorkItem>) countWorkRow(counts, workRow(item), at);
  const { queued, leased, stale, oldestQueuedAt, byStatus, rows: total } = counts;
  return {
    environment_id: envId,
    queued,
    leased,
    stale,
    demand: queued + leased,
    oldest_queued_age_seconds: oldestQueuedAt === undefined ? null : Math.max(0, Math.round((at - oldestQueuedAt) / 1000)),
    by_status: byStatus,
    rows: total,
    observed_at: new Date(at).toISOString(),
  };
}

export async function runWorkStats(ctx: Ctx, o: WorkStatsOptions): Promise<void> {
  if (ctx.out.format === 'id') throw new UsageError('svc work stats prints counts, which have no ID: use -o json, -o table or --jq');
  const c = await workClient(ctx, true);
  const now = ctx.io.now ?? Date.now;
  if (o.serve) return serveStats(ctx, c, o, now);
  if (!o.watch) return printStats(ctx, await queueStats(c, o.env, now));
  await watchStats(ctx, c, o, now);
}

/** A table of one row on a terminal; the object in every other format. */
const printStats = (ctx: Ctx, stats: QueueStats): Promise<void> =>
  ctx.out.format === 'table' && !ctx.out.opts.jq ? ctx.out.list([stats], STATS_COLUMNS) : ctx.out.item(stats);

/** `-w`: a count every interval until Ctrl-C (130), SIGTERM or --timeout (0); off a terminal one JSON line each. */
async function watchStats(ctx: Ctx, c: ApiClient, o: WorkStatsOptions, now: () => number): Promise<void> {
  const signal = ctx.io.signal;
  const started = now();
  for (;;) {
    const stats = await queueStats(c, o.env, now);
    // Off a terminal a pass is one JSON line, so a script reads each as it comes.
    if ((ctx.out.format === 'json' || ctx.out.format === 'ndjson') && !ctx.out.opts.jq) await write(ctx.io.stdout, JSON.stringify(stats) + '\n');
    else await printStats(ctx, stats);
    const left = o.timeoutMs === undefined ? o.intervalMs : Math.min(o.intervalMs, started + o.timeoutMs - now());
    if (left <= 0 || !(await sleep(left, signal))) break;
  }
  if (signal?.aborted && signal.reason !== 'SIGTERM') throw new InterruptedError();
}

/**
 * `--serve`: the same JSON over HTTP for a scaler (`GET /`, `/stats`; `/healthz`). A pass runs at most once an
 * interval, shared by the requests that arrive meanwhile. Runs until SIGTERM (0) or Ctrl-C (130).
 */
async function serveStats(ctx: Ctx, c: ApiClient, o: WorkStatsOptions, now: () => number): Promise<void> {
  const { serveHttp } = await import('../../net/serve-http');
  let last: { at: number; stats: Promise<QueueStats> } | undefined;
  const current = (): Promise<QueueStats> => {
    if (!last || now() - last.at >= o.intervalMs) {
      const stats = queueStats(c, o.env, now);
      last = { at: now(), stats };
      // A failed pass is not kept: the next request tries again.
      stats.catch(() => {
        if (last?.stats === stats) last = undefined;
      });
    }
    return last.stats;
  };
  const json = 'application/json';
  const server = await serveHttp(o.serve!, async (path) => {
    if (path === '/healthz') return { status: 200, type: 'text/plain; charset=utf-8', body: 'ok\n' };
    if (path !== '/' && path !== '/stats') return undefined;
    try {
      return { status: 200, type: json, body: JSON.stringify(await current()) + '\n' };
    } catch (e) {
      // The scaler sees a failure, never a zero it would scale down on.
      return { status: 503, type: json, body: JSON.stringify({ error: { message: e instanceof Error ? e.message : String(e) } }) + '\n' };
    }
  });
  await write(ctx.io.stderr, `serving the queue stats of ${o.env} on ${server.url}/ (address ${server.address.host}:${server.address.port}); Ctrl-C stops\n`);
  try {
    await sleep(Infinity, ctx.io.signal);
  } finally {
    await server.close();
  }
  if (ctx.io.signal?.reason !== 'SIGTERM') throw new InterruptedError();
}
