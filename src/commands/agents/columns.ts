import type { Column } from '../../output/table';
import type { Agent } from '../../wire/resources';
import { age } from '../../output/age';
import { LABELLED_WIDE_COLUMNS, nameColumn } from '../../output/cells';

const model = (m: unknown): unknown => (m && typeof m === 'object' ? (m as { id?: string }).id : m);

export const AGENT_COLUMNS: Column<Agent>[] = [
  { header: 'ID', get: (a) => a.id },
  nameColumn,
  { header: 'MODEL', get: (a) => model(a.model) },
  { header: 'VERSION', get: (a) => a.version },
  { header: 'UPDATED', get: (a) => age(a.updated_at) },
  { header: 'DESCRIPTION', get: (a) => a.description, wide: true },
  ...LABELLED_WIDE_COLUMNS,
];
