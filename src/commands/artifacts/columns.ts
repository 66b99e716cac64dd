import type { Column } from '../../output/table';
import type { Artifact, WireObject } from '../../wire/resources';
import { nameColumn, sizeCell } from '../../output/cells';
import { age } from '../../output/age';

export const ARTIFACT_COLUMNS: Column<Artifact>[] = [
  { header: 'ID', get: (a) => a.id },
  nameColumn,
  { header: 'SESSION', get: (a) => a.session_id },
  { header: 'LATEST', get: (a) => a.latest_version },
  { header: 'TYPE', get: (a) => a.mime_type },
  { header: 'UPDATED', get: (a) => age(a.updated_at) },
  { header: 'CREATED', get: (a) => age(a.created_at), wide: true },
];

export const ARTIFACT_VERSION_COLUMNS: Column<WireObject>[] = [
  { header: 'VERSION', get: (v) => v.version },
  { header: 'SIZE', get: (v) => sizeCell(v.size_bytes) },
  { header: 'TYPE', get: (v) => v.mime_type },
  { header: 'CREATED', get: (v) => age(v.created_at) },
];
