import { backoffMs } from '../api/backoff';
import type { ApiClient } from '../api/client';
import { ApiError, INVALID_REQUEST, NetworkError, PROXY_AUTH } from '../api/errors';
import { work, type WorkItem } from '../api/work';
import type { Clock } from './clock';
import { describe } from './lease';
import type { WorkerLog } from './log';
import type { RowEnd, WorkerMetrics } from './metrics';

export interface PollOptions {
  environmentId: string;
  workerId: string;
  concurrency: number;
  once: boolean;
  blockMs: number;
}

export interface PollDeps {
  client: ApiClient;
  log: WorkerLog;
  clock: Clock;
  serve: (item: WorkItem) => Promise<RowEnd>;
  metrics: WorkerMetrics;
}

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;
const EMPTY_CAP_MS = 5_000;

/**
 * Claims rows with long polls while a slot is free, backing off with jitter when the queue is empty or the
 * service fails. Ends when `signal` aborts (after every row has stopped) or, with `once`, after one row was
 * completed; a row abandoned on a lost lease does not count (docs/behaviour.md `worker run --once`).
 */
export async function pollLoop(opts: PollOptions, deps: PollDeps, signal: AbortSignal): Promise<void> {
  const rows = new Set<Promise<void>>();
  let completed = 0;
  let failures = 0;
  let empties = 0;
  const stopped = aborted(signal);
  while (!signal.aborted && !(opts.once && completed > 0)) {
    if (rows.size >= opts.concurrency) {
      await Promise.race([...rows, stopped]);
      continue;
    }
    let items: WorkItem[];
    try {
      deps.metrics.pollStarted();
      items = (await work.poll(deps.client, opts.environmentId, opts.workerId, opts.blockMs, signal)).items;
      failures = 0;
      deps.metrics.polled(items.length > 0 ? 'claimed' : 'empty');
    } catch (e) {
      if (signal.aborted) break;
      deps.metrics.polled('error', describe(e));
      if (!transient(e)) throw e;
      failures++;
      const ms = backoff(deps.clock, failures, BACKOFF_CAP_MS);
      deps.log.warn('poll failed; backing off', { error: describe(e), retry_ms: ms });
      await deps.clock.delay(ms, signal);
      continue;
    }
    if (items.length === 0) {
      empties++;
      await deps.clock.delay(backoff(deps.clock, empties, EMPTY_CAP_MS), signal);
      continue;
    }
    empties = 0;
    for (const item of items) {
      const p: Promise<void> = deps
        .serve(item)
        .then(
          (outcome) => {
            if (outcome === 'completed') completed++;
          },
          (e) => deps.log.error('row failed', { row: item.id, error: describe(e) }),
        )
        .finally(() => rows.delete(p));
      rows.add(p);
    }
  }
  await Promise.all(rows);
}

/** Worth polling again: no answer, a throttle, or a server failure; a refused credential or a bad request is not. */
function transient(e: unknown): boolean {
  // A request Node refuses to build (a header value it cannot carry) fails the same way every time.
  // A proxy that asks for credentials asks again.
  if (e instanceof NetworkError) return (e.cause as { code?: string } | undefined)?.code !== INVALID_REQUEST && e.code !== PROXY_AUTH;
  // Over quota is not a rate limit: waiting does not help, so the worker stops and says so.
  return e instanceof ApiError && e.type !== 'exceeded_current_quota_error' && (e.status >= 500 || e.status === 429 || e.malformed);
}

const backoff = (clock: Clock, attempt: number, capMs: number): number => backoffMs(attempt, clock.random, BACKOFF_BASE_MS, capMs);

const aborted = (signal: AbortSignal) => new Promise<void>((r) => (signal.aborted ? r() : signal.addEventListener('abort', () => r(), { once: true })));
