import type { Column } from '../../output/table';
import type { SvcFile } from '../../wire/resources';
import { sizeCell } from '../../output/cells';
import { age } from '../../output/age';

/** `STATUS` shows `extract_status`, or `status` of the compatibility format. */
export const FILE_COLUMNS: Column<SvcFile>[] = [
  { header: 'ID', get: (f) => f.id },
  { header: 'FILENAME', get: (f) => f.filename },
  { header: 'SIZE', get: (f) => sizeCell(f.size_bytes) },
  { header: 'TYPE', get: (f) => f.mime_type },
  { header: 'STATUS', get: (f) => f.extract_status ?? f.status },
  { header: 'CREATED', get: (f) => age(f.created_at) },
  { header: 'PURPOSE', get: (f) => f.purpose, wide: true },
  { header: 'UPDATED', get: (f) => age(f.updated_at), wide: true },
];
