import type { Column } from '../../output/table';
import { age } from '../../output/age';

export const WORK_COLUMNS: Column[] = [
  { header: 'ID', get: (w) => w.id },
  { header: 'SESSION', get: (w) => w.session_id },
  { header: 'STATUS', get: (w) => w.status },
  { header: 'GENERATION', get: (w) => w.generation },
  { header: 'WORKER', get: (w) => w.worker_id },
  { header: 'CREATED', get: (w) => age(w.created_at) },
];

/** Only with `work poll --show-secret`: the row's credential bundle. */
export const SECRET_COLUMN: Column = { header: 'SECRET', get: (w) => w.secret };
