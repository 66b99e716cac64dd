/** What the board keeps of each object the service lists: a few fields, so ten thousand sessions stay small. */
import { addCount } from '../wire/own-counts';
import type { Obj } from '../api/resources';
import { sessionState, stateText, type SessionState } from '../session/state';

export interface SessionRow {
  id: string;
  title: string;
  agentId: string;
  status: string;
  /** `stop_reason.type` of an idle session: end_turn, requires_action, error, interrupted… */
  stopReason?: string;
  /** The awaited event IDs of a session waiting on a human (`stop_reason.event_ids`), oldest first. */
  awaited: readonly string[];
  requiresAction: boolean;
  interrupted: boolean;
  stopping: boolean;
  continuePending: boolean;
  epoch?: string;
  createdAt: number;
  updatedAt: number;
  archived: boolean;
}

export interface WorkRow {
  id: string;
  sessionId: string;
  status: string;
  generation?: number;
  workerId?: string;
  leaseTtlMs?: number;
  /** When the lease was last renewed: the latest heartbeat, else the acknowledgement. */
  renewedAt?: number;
  heartbeatAt?: number;
  createdAt: number;
}

export interface TriggerRow {
  id: string;
  name: string;
  agentId: string;
  status: string;
  /** `paused_reason` of a paused trigger, as one line. */
  pausedReason?: string;
  createdAt: number;
  updatedAt: number;
}

/** A trigger's newest run. */
export interface LastRun {
  at?: number;
  outcome: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const time = (v: unknown): number => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? t : 0;
};
const optionalTime = (v: unknown): number | undefined => (typeof v === 'string' && Number.isFinite(Date.parse(v)) ? Date.parse(v) : undefined);

export function sessionRow(o: Obj): SessionRow {
  const stop = o.stop_reason as { type?: unknown; event_ids?: unknown } | null | undefined;
  const stopReason = str(stop?.type);
  return {
    id: String(o.id),
    title: str(o.title) ?? '',
    agentId: str(o.agent_id) ?? '',
    status: str(o.status) ?? 'unknown',
    stopReason,
    awaited: Array.isArray(stop?.event_ids) ? stop.event_ids.filter((x): x is string => typeof x === 'string') : [],
    requiresAction: o.requires_action === true || stopReason === 'requires_action',
    interrupted: o.interrupted === true,
    stopping: o.stopping === true,
    continuePending: o.continue_pending === true,
    epoch: str(o.control_epoch),
    createdAt: time(o.created_at),
    updatedAt: time(o.updated_at),
    archived: Boolean(o.archived_at),
  };
}

/** A row's derived state (src/session/state.ts), with the queued inputs the board read for it. */
export function rowState(r: SessionRow, pendingInputs?: number): SessionState {
  const stop = r.stopReason === undefined ? undefined : { type: r.stopReason, event_ids: r.awaited };
  return sessionState(
    {
      status: r.status,
      stop_reason: stop,
      interrupted: r.interrupted,
      stopping: r.stopping,
      continue_pending: r.continuePending,
      requires_action: r.requiresAction,
    },
    { pendingInputs },
  );
}

/** A session's derived state as the board shows it, or `archived`: the words every view shows. */
export function sessionStatus(r: SessionRow, pendingInputs?: number): string {
  return r.archived ? 'archived' : stateText(rowState(r, pendingInputs));
}

export function workRow(o: Obj): WorkRow {
  const heartbeatAt = optionalTime(o.latest_heartbeat_at);
  return {
    id: String(o.id),
    sessionId: str(o.session_id) ?? '',
    status: str(o.status) ?? 'unknown',
    generation: typeof o.generation === 'number' ? o.generation : undefined,
    workerId: str(o.worker_id),
    leaseTtlMs: typeof o.lease_ttl_ms === 'number' ? o.lease_ttl_ms : undefined,
    heartbeatAt,
    renewedAt: heartbeatAt ?? optionalTime(o.acknowledged_at) ?? optionalTime(o.started_at),
    createdAt: time(o.created_at),
  };
}

export function triggerRow(o: Obj): TriggerRow {
  const reason = o.paused_reason as { error?: { type?: unknown; message?: unknown }; session_id?: unknown } | null | undefined;
  // The error's type and the session it names; its message repeats them.
  const why = reason ? [str(reason.error?.type) ?? str(reason.error?.message), reason.session_id ? `(${String(reason.session_id)})` : undefined] : [];
  return {
    id: String(o.id),
    name: str(o.name) ?? '',
    agentId: str(o.agent_id) ?? '',
    status: str(o.status) ?? 'unknown',
    pausedReason: reason ? why.filter(Boolean).join(' ') || 'paused' : undefined,
    createdAt: time(o.created_at),
    updatedAt: time(o.updated_at),
  };
}

export function lastRun(o: Obj | undefined): LastRun {
  if (!o) return { outcome: 'never' };
  const error = o.error as { type?: unknown } | undefined;
  const outcome = str(o.status) ?? (error ? 'failed' : 'ran');
  return { at: optionalTime(o.created_at), outcome: error && str(error.type) ? `${outcome}: ${String(error.type)}` : outcome };
}

/** Leased work rows (the spec's `starting`, `active`, `stopping`) whose lease ran past its TTL without renewal. */
export function isStale(w: WorkRow, now: number): boolean {
  if (!['starting', 'active', 'stopping'].includes(w.status) || w.leaseTtlMs === undefined || w.renewedAt === undefined) return false;
  return now - w.renewedAt > w.leaseTtlMs;
}

/** An environment's work queue counted by state: what `svc work stats` prints and `svc top`'s work view heads with. */
export interface QueueCounts {
  /** Rows by their `status`, unknown statuses under their own name. */
  byStatus: Record<string, number>;
  queued: number;
  /** In `starting`, `active` or `stopping`. */
  leased: number;
  /** Leased rows whose lease ran past its TTL ({@link isStale}). */
  stale: number;
  rows: number;
  /** `created_at` of the oldest queued row. */
  oldestQueuedAt?: number;
}

const LEASED = new Set(['starting', 'active', 'stopping']);

export const emptyQueueCounts = (): QueueCounts => ({
  byStatus: { queued: 0, starting: 0, active: 0, stopping: 0, completed: 0, failed: 0, cancelled: 0 },
  queued: 0,
  leased: 0,
  stale: 0,
  rows: 0,
});

/** Adds one row to the counts: one pass over the rows, however many, in constant memory. */
export function countWorkRow(c: QueueCounts, w: WorkRow, now: number): void {
  c.rows++;
  addCount(c.byStatus, String(w.status), 1);
  if (w.status === 'queued') {
    c.queued++;
    if (w.createdAt > 0 && (c.oldestQueuedAt === undefined || w.createdAt < c.oldestQueuedAt)) c.oldestQueuedAt = w.createdAt;
  }
  if (LEASED.has(w.status)) c.leased++;
  if (isStale(w, now)) c.stale++;
}

export function queueCounts(rows: Iterable<WorkRow>, now: number): QueueCounts {
  const c = emptyQueueCounts();
  for (const w of rows) countWorkRow(c, w, now);
  return c;
}
