import type { ApiClient } from '../api/client';
import { decodeSecret, type WorkItem } from '../api/work';
import type { Follow } from '../api/stream/types';
import type { Clock } from './clock';
import { describe, Lease } from './lease';
import type { Fields, WorkerLog } from './log';
import type { RowEnd, WorkerMetrics } from './metrics';
import { SessionWorker, type SessionDeps } from './session';
import type { ToolContext } from './tools/index';
import { addSecret } from '../text/redact';

/** What a row server reports; `serveRow` adds `handed_back` (the drain gave it up) and `failed` (it could not be served). */
export type RowOutcome = 'completed' | 'abandoned' | 'stopped';

/** A claimed and acknowledged row, as a row server sees it: the lease is held and heartbeating. */
export interface HeldRow {
  /** The row without its `secret`. */
  item: WorkItem & { session_id: string; environment_id: string };
  /** The session work token: memory only, never logged. */
  token: string;
  client: ApiClient;
  lease: Lease;
  fields: Fields;
}

/** Serves a held row until it is completed, the lease is lost, or `shutdown` aborts. */
export type RowServer = (row: HeldRow, shutdown: AbortSignal) => Promise<RowOutcome>;

export interface RowDeps {
  /** A client that speaks with this credential. */
  clientFor: (credential: string) => ApiClient;
  log: WorkerLog;
  clock: Clock;
  heartbeatMs?: number;
  /** Runs once the lease is held, before the row is served (skill packages into the workdir). */
  prepare?: (row: HeldRow) => Promise<void>;
  serve: RowServer;
  metrics: WorkerMetrics;
}

/**
 * Serves one claimed row from ack to its end: `completed` (the session went idle and the row was stopped),
 * `abandoned` (the lease was lost: nothing more is written for it), `stopped` (the worker shut down: `shutdown`),
 * `handed_back` (`handBack` aborted at the end of a drain) or `failed` (the row could not be served).
 */
export async function serveRow(claimed: WorkItem, deps: RowDeps, shutdown: AbortSignal, handBack?: AbortSignal): Promise<RowEnd> {
  const { secret, ...item } = claimed;
  const fields: Fields = { row: item.id, session: item.session_id, generation: item.generation };
  if (secret === undefined || item.session_id === undefined || item.environment_id === undefined) {
    deps.log.error('claimed row is incomplete; skipping it', fields);
    return 'failed';
  }
  addSecret(secret);
  let token: string;
  try {
    // Only `sessions_token` is taken from the bundle; it lives in memory only.
    token = decodeSecret(secret).sessions_token;
  } catch (e) {
    deps.log.error('cannot decode the row secret; skipping it', { ...fields, error: describe(e) });
    return 'failed';
  }
  addSecret(token);
  deps.log.info('row claimed', { ...fields, lease_ttl_ms: item.lease_ttl_ms });
  const client = deps.clientFor(token);
  const lease = new Lease(item, client, deps.log, deps.clock, deps.heartbeatMs);
  lease.lost.addEventListener('abort', () => lease.handedBack || deps.metrics.leaseLost(), { once: true });
  const giveBack = () => lease.handBack();
  handBack?.addEventListener('abort', giveBack, { once: true });
  try {
    if (shutdown.aborted || handBack?.aborted || !(await lease.ack())) return 'abandoned';
    const outcome = await serveHeld(item, token, client, lease, fields, deps, shutdown);
    return outcome === 'abandoned' && lease.handedBack ? 'handed_back' : outcome;
  } finally {
    handBack?.removeEventListener('abort', giveBack);
  }
}

async function serveHeld(
  item: Omit<WorkItem, 'secret'>,
  token: string,
  client: ApiClient,
  lease: Lease,
  fields: Fields,
  deps: RowDeps,
  shutdown: AbortSignal,
): Promise<RowOutcome> {
  const heartbeats = lease.heartbeats();
  const held: HeldRow = { item: item as HeldRow['item'], token, client, lease, fields };
  try {
    await deps.prepare?.(held);
    return await deps.serve(held, shutdown);
  } finally {
    lease.close();
    await heartbeats;
  }
}

export interface InProcessDeps {
  follow: Follow;
  log: WorkerLog;
  clock: Clock;
  tools: Omit<ToolContext, 'signal'>;
  maxIdleMs: number;
  metrics?: WorkerMetrics;
  /** Aborted when the worker drains: an idle session's row is completed at once, whatever `maxIdleMs` says. */
  draining?: AbortSignal;
  toolRun?: SessionDeps['toolRun'];
}

/** The built-in way: this process follows the session and runs its tool calls. */
export function inProcess(deps: InProcessDeps): RowServer {
  return async ({ item, client, lease, fields }, shutdown) => {
    const session = new SessionWorker(
      item.session_id,
      lease,
      {
        client,
        follow: deps.follow,
        log: deps.log,
        clock: deps.clock,
        tools: deps.tools,
        maxIdleMs: deps.maxIdleMs,
        metrics: deps.metrics,
        draining: deps.draining,
        toolRun: deps.toolRun,
      },
      fields,
    );
    const onShutdown = () => session.end(false);
    shutdown.addEventListener('abort', onShutdown, { once: true });
    if (shutdown.aborted) onShutdown();
    void session.serve();
    const completed = await session.done;
    shutdown.removeEventListener('abort', onShutdown);
    if (completed) return 'completed';
    if (lease.lost.aborted) return 'abandoned';
    return (await stopForShutdown(lease, () => session.cancelTools(), deps.log, fields)) ? 'stopped' : 'abandoned';
  };
}

/**
 * Shutdown of a held row: leased → stopping, tools cancelled and their results written
 * back (by `windDown`), then the stop completes the row.
 */
export async function stopForShutdown(lease: Lease, windDown: () => Promise<void>, log: WorkerLog, fields: Fields): Promise<boolean> {
  log.info('stopping the row', fields);
  await lease.stop();
  await windDown();
  const outcome = await lease.stop('completed');
  if (outcome === 'stopped') log.info('row stopped', fields);
  else log.warn('row not stopped', { ...fields, outcome });
  return outcome === 'stopped';
}
