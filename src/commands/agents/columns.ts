import type { Column } from '../../output/table';
import { age } from '../../output/age';

const model = (m: unknown): unknown => (m && typeof m === 'object' ? (m as { id?: string }).id : m);

export const AGENT_COLUMNS: Column[] = [
  { header: 'ID', get: (a) => a.id },
  { header: 'NAME', get: (a) => a.name },
  { header: 'MODEL', get: (a) => model(a.model) },
  { header: 'VERSION', get: (a) => a.version },
  { header: 'UPDATED', get: (a) => age(a.updated_at) },
];
