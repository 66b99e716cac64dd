import type { Column } from '../../output/table';
import type { Skill, WireObject } from '../../wire/resources';
import { listCell, nameColumn, sizeCell } from '../../output/cells';
import { age } from '../../output/age';

export const SKILL_COLUMNS: Column<Skill>[] = [
  { header: 'ID', get: (s) => s.id },
  nameColumn,
  { header: 'LATEST', get: (s) => s.latest_version },
  { header: 'CATEGORIES', get: (s) => listCell(s.categories) },
  { header: 'UPDATED', get: (s) => age(s.updated_at) },
  { header: 'DESCRIPTION', get: (s) => s.description, wide: true },
  { header: 'CREATED', get: (s) => age(s.created_at), wide: true },
  { header: 'ARCHIVED', get: (s) => age(s.archived_at), wide: true },
];

/** Package versions of skills and plugins. */
export const PACKAGE_VERSION_COLUMNS: Column<WireObject>[] = [
  { header: 'VERSION', get: (v) => v.version },
  { header: 'FILENAME', get: (v) => v.filename },
  { header: 'SIZE', get: (v) => sizeCell(v.size_bytes) },
  { header: 'CREATED', get: (v) => age(v.created_at) },
];
