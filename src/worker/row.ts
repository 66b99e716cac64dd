import type { ApiClient } from '../api/client';
import { decodeSecret, type WorkItem } from '../api/work';
import type { Follow } from '../api/stream/types';
import type { Clock } from './clock';
import { describe, Lease } from './lease';
import type { Fields, WorkerLog } from './log';
import { SessionWorker } from './session';
import type { ToolContext } from './tools/index';

export type RowOutcome = 'completed' | 'abandoned' | 'stopped';

export interface RowDeps {
  /** A client that speaks with this credential. */
  clientFor: (credential: string) => ApiClient;
  follow: Follow;
  log: WorkerLog;
  clock: Clock;
  tools: Omit<ToolContext, 'signal'>;
  heartbeatMs?: number;
}

/**
 * Serves one claimed row from ack to its end: `completed` (the session went idle and the row was stopped),
 * `abandoned` (the lease was lost: nothing more is written for it), or `stopped` (the worker shut down).
 */
export async function serveRow(claimed: WorkItem, deps: RowDeps, shutdown: AbortSignal): Promise<RowOutcome> {
  const { secret, ...item } = claimed;
  const fields: Fields = { row: item.id, session: item.session_id, generation: item.generation };
  if (secret === undefined || item.session_id === undefined || item.environment_id === undefined) {
    deps.log.error('claimed row is incomplete; skipping it', fields);
    return 'abandoned';
  }
  deps.log.redact(secret);
  let token: string;
  try {
    // R-WORK-10: only `sessions_token` is taken from the bundle; it lives in memory only (R-WORK-11).
    token = decodeSecret(secret).sessions_token;
  } catch (e) {
    deps.log.error('cannot decode the row secret; skipping it', { ...fields, error: describe(e) });
    return 'abandoned';
  }
  deps.log.redact(token);
  deps.log.info('row claimed', { ...fields, lease_ttl_ms: item.lease_ttl_ms });
  const client = deps.clientFor(token);
  const lease = new Lease(item, client, deps.log, deps.clock, deps.heartbeatMs);
  if (shutdown.aborted || !(await lease.ack())) return 'abandoned';
  const heartbeats = lease.heartbeats();
  const session = new SessionWorker(item.session_id, lease, { client, follow: deps.follow, log: deps.log, clock: deps.clock, tools: deps.tools }, fields);
  const onShutdown = () => session.end(false);
  shutdown.addEventListener('abort', onShutdown, { once: true });
  if (shutdown.aborted) onShutdown();
  void session.serve();
  const completed = await session.done;
  shutdown.removeEventListener('abort', onShutdown);
  let outcome: RowOutcome = completed ? 'completed' : 'abandoned';
  if (!completed && !lease.lost.aborted) outcome = (await stopForShutdown(lease, session, deps.log, fields)) ? 'stopped' : 'abandoned';
  lease.close();
  await heartbeats;
  return outcome;
}

/**
 * Shutdown of a held row (R-WORK-27, R-WORK-30): leased → stopping, tools cancelled and their results written
 * back, then the stop completes the row.
 */
async function stopForShutdown(lease: Lease, session: SessionWorker, log: WorkerLog, fields: Fields): Promise<boolean> {
  log.info('stopping the row', fields);
  await lease.stop();
  await session.cancelTools();
  const outcome = await lease.stop('completed');
  if (outcome === 'stopped') log.info('row stopped', fields);
  else log.warn('row not stopped', { ...fields, outcome });
  return outcome === 'stopped';
}
