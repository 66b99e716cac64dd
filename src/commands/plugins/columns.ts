import type { Column } from '../../output/table';
import { listCell } from '../../output/cells';

export const PLUGIN_COLUMNS: Column[] = [
  { header: 'ID', get: (p) => p.id },
  { header: 'NAME', get: (p) => p.name },
  { header: 'SCOPE', get: (p) => p.scope },
  { header: 'STATUS', get: (p) => p.status },
  { header: 'LATEST', get: (p) => p.latest_version },
  { header: 'CATEGORIES', get: (p) => listCell(p.categories) },
  { header: 'DESCRIPTION', get: (p) => p.description, wide: true },
  { header: 'VERSION', get: (p) => p.version, wide: true },
];
