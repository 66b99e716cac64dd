import type { Rec } from '../store';
import type { WORK_ITEM_STATUSES, WorkItem } from '../../wire/resources';

export type WorkStatus = (typeof WORK_ITEM_STATUSES)[number];

type Stamps = 'worker_id' | 'claimed_at' | 'acknowledged_at' | 'started_at' | 'latest_heartbeat_at' | 'stop_requested_at' | 'stopped_at';

/** A work row as stored; `_deadline` (epoch ms) ends the delivery window or the lease, whichever is running. */
export type WorkRow = Rec &
  Required<Pick<WorkItem, 'session_id' | 'environment_id' | 'generation' | 'lease_ttl_ms'>> &
  Pick<WorkItem, Stamps> & {
    status: WorkStatus;
    _deadline?: number;
  };

/** Exactly the spec's WorkItem members, in its order; `secret` is added by the claiming poll alone. */
const WORK_ITEM_FIELDS = [
  'id',
  'session_id',
  'environment_id',
  'status',
  'generation',
  'worker_id',
  'lease_ttl_ms',
  'created_at',
  'claimed_at',
  'acknowledged_at',
  'started_at',
  'latest_heartbeat_at',
  'stop_requested_at',
  'stopped_at',
] as const;

export function workItem(row: WorkRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of WORK_ITEM_FIELDS) if (row[k] !== undefined) out[k] = row[k];
  return out;
}

export const LEASED: readonly WorkStatus[] = ['starting', 'active', 'stopping'];
export const TERMINAL: readonly WorkStatus[] = ['completed', 'failed', 'cancelled'];

export const isLive = (row: WorkRow): boolean => !TERMINAL.includes(row.status);
/** Queued and handed to a worker whose ack is still awaited (the delivery window is running). */
export const isDelivered = (row: WorkRow): boolean => row.status === 'queued' && row.worker_id !== undefined;

/** The credential bundle: base64url JSON whose `sessions_token` the worker uses; the rest is reserved. */
export function encodeSecret(sessionsToken: string, row: WorkRow): string {
  const bundle = { sessions_token: sessionsToken, reserved: { work_id: row.id, generation: row.generation } };
  return Buffer.from(JSON.stringify(bundle)).toString('base64url');
}
