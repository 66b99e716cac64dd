import type { Column } from '../../output/table';
import type { Plugin } from '../../wire/resources';
import { listCell, nameColumn } from '../../output/cells';

export const PLUGIN_COLUMNS: Column<Plugin>[] = [
  { header: 'ID', get: (p) => p.id },
  nameColumn,
  { header: 'SCOPE', get: (p) => p.scope },
  { header: 'STATUS', get: (p) => p.status },
  { header: 'LATEST', get: (p) => p.latest_version },
  { header: 'CATEGORIES', get: (p) => listCell(p.categories) },
  { header: 'DESCRIPTION', get: (p) => p.description, wide: true },
  { header: 'VERSION', get: (p) => p.version, wide: true },
];
