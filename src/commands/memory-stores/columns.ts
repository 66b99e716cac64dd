import { nameColumn } from '../../output/cells';
import type { Column } from '../../output/table';
import type { MemoryStore } from '../../wire/resources';
import { age } from '../../output/age';

export const MEMORY_STORE_COLUMNS: Column<MemoryStore>[] = [
  { header: 'ID', get: (s) => s.id },
  nameColumn,
  { header: 'ARCHIVED', get: (s) => age(s.archived_at) },
  { header: 'UPDATED', get: (s) => age(s.updated_at) },
  { header: 'DESCRIPTION', get: (s) => s.description },
  { header: 'CREATED', get: (s) => age(s.created_at), wide: true },
];
