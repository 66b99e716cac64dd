import type { Column } from '../../output/table';
import type { WorkItem } from '../../wire/resources';
import { age } from '../../output/age';

export const WORK_COLUMNS: Column<WorkItem>[] = [
  { header: 'ID', get: (w) => w.id },
  { header: 'SESSION', get: (w) => w.session_id },
  { header: 'STATUS', get: (w) => w.status },
  { header: 'GENERATION', get: (w) => w.generation },
  { header: 'WORKER', get: (w) => w.worker_id },
  { header: 'CREATED', get: (w) => age(w.created_at) },
  { header: 'ENVIRONMENT', get: (w) => w.environment_id, wide: true },
  { header: 'LEASE_TTL_MS', get: (w) => w.lease_ttl_ms, wide: true },
  { header: 'HEARTBEAT', get: (w) => age(w.latest_heartbeat_at), wide: true },
  { header: 'STOPPED', get: (w) => age(w.stopped_at), wide: true },
];

/** Only with `work poll --show-secret`: the row's credential bundle. */
export const SECRET_COLUMN: Column = { header: 'SECRET', get: (w) => w.secret };
