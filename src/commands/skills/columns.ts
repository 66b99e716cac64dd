import type { Column } from '../../output/table';
import { listCell, sizeCell } from '../../output/cells';
import { age } from '../../output/age';

export const SKILL_COLUMNS: Column[] = [
  { header: 'ID', get: (s) => s.id },
  { header: 'NAME', get: (s) => s.name },
  { header: 'LATEST', get: (s) => s.latest_version },
  { header: 'CATEGORIES', get: (s) => listCell(s.categories) },
  { header: 'UPDATED', get: (s) => age(s.updated_at) },
];

/** Package versions of skills and plugins. */
export const PACKAGE_VERSION_COLUMNS: Column[] = [
  { header: 'VERSION', get: (v) => v.version },
  { header: 'FILENAME', get: (v) => v.filename },
  { header: 'SIZE', get: (v) => sizeCell(v.size_bytes) },
  { header: 'CREATED', get: (v) => age(v.created_at) },
];
