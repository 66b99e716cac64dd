import { age } from './age';
import type { Column } from './table';
import type { WireObject } from '../wire/resources';
import { formatBytes } from './progress';
import { cellText } from './table';

// Table cells shared by several resources' columns.

/** A byte count as `1.2 MiB`; anything else as it came. */
export const sizeCell = (n: unknown): unknown => (typeof n === 'number' ? formatBytes(n) : n);

/** A list as `a,b`; anything else as it came. */
export const listCell = (v: unknown): unknown => (Array.isArray(v) ? v.join(',') : v);

/** Metadata labels as `key=value,key=value`; anything else as it came. */
export const labelsCell = (m: unknown): unknown =>
  m && typeof m === 'object' && !Array.isArray(m)
    ? Object.entries(m)
        .map(([k, v]) => `${k}=${cellText(v)}`)
        .join(',')
    : m;

/**
 * The NAME column of a resource. Assumption (docs/service.md "tolerate"): the service may name a thing in `display_name`
 * where we read `name`, so a row without a name shows that.
 */
export const nameColumn: Column<WireObject> = { header: 'NAME', get: (o) => o.name ?? o.display_name };

/** The wide columns of an archivable resource with labels (`-o wide`): its labels, created and archived ages. */
export const LABELLED_WIDE_COLUMNS: Column<WireObject>[] = [
  { header: 'LABELS', get: (o) => labelsCell(o.metadata), wide: true },
  { header: 'CREATED', get: (o) => age(o.created_at), wide: true },
  { header: 'ARCHIVED', get: (o) => age(o.archived_at), wide: true },
];
