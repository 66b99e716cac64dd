import { formatBytes } from './progress';

// Table cells shared by several resources' columns.

/** A byte count as `1.2 MiB`; anything else as it came. */
export const sizeCell = (n: unknown): unknown => (typeof n === 'number' ? formatBytes(n) : n);

/** A list as `a,b`; anything else as it came. */
export const listCell = (v: unknown): unknown => (Array.isArray(v) ? v.join(',') : v);
