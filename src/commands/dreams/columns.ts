import type { Column } from '../../output/table';
import type { Dream } from '../../wire/resources';
import { age } from '../../output/age';

export const DREAM_COLUMNS: Column<Dream>[] = [
  { header: 'ID', get: (d) => d.id },
  { header: 'MEMORY STORE', get: (d) => d.memory_store_id },
  { header: 'STATUS', get: (d) => d.status },
  { header: 'CREATED', get: (d) => age(d.created_at) },
  { header: 'UPDATED', get: (d) => age(d.updated_at), wide: true },
  { header: 'INSTRUCTIONS', get: (d) => d.instructions },
];
