import { UsageError } from '../runtime/errors';
import { parsePath, pathValue } from './path';
import type { Column } from './table';

/**
 * Which columns a table shows and whether it has its header line: the resource's default columns (`-o table`), every
 * column (`-o wide`), or the user's own (`-o custom-columns=HEADER:.path,…`, kubectl's syntax).
 */
export interface TableLayout {
  /** Custom columns read any row by its paths. */
  columns: 'default' | 'wide' | Column<unknown>[];
  headers: boolean;
}

export const DEFAULT_LAYOUT: TableLayout = { columns: 'default', headers: true };

/** What kubectl prints for a custom column whose path leads nowhere: a column of blanks would shift `awk`'s fields. */
const NONE = '<none>';

/** `-o wide` and `-o custom-columns=…` as a layout, or undefined for any other format; a bad spec is exit 2. */
export function parseLayoutFormat(v: string): TableLayout['columns'] | undefined {
  if (v === 'wide') return 'wide';
  if (!v.startsWith('custom-columns=')) return undefined;
  return customColumns(v.slice('custom-columns='.length));
}

/** `HEADER:.path,…` as columns. */
export function customColumns(spec: string): Column<unknown>[] {
  const what = '-o custom-columns';
  if (spec.trim() === '') throw new UsageError(`${what} needs columns: custom-columns=HEADER:.path,… (e.g. ID:.id,NAME:.name)`);
  return spec.split(',').map((part, i) => {
    const at = part.indexOf(':');
    const header = at < 0 ? '' : part.slice(0, at).trim();
    if (at < 0 || header === '') throw new UsageError(`${what}: column ${i + 1} ("${part}") is not HEADER:.path`);
    const path = parsePath(part.slice(at + 1), `${what} ${header}`);
    return { header, get: (row: unknown) => pathValue(row, path) ?? NONE };
  });
}

/** The columns a table shows of a resource's column list under this layout. */
export function layoutColumns<T>(columns: Column<T>[], layout: TableLayout): Column<T>[] {
  if (Array.isArray(layout.columns)) return layout.columns as Column<T>[];
  return layout.columns === 'wide' ? columns : columns.filter((c) => !c.wide);
}

/** Whether a single object prints as a row (a chosen column set, or no header) rather than as `key  value` lines. */
export const itemAsRow = (layout: TableLayout): boolean => layout.columns !== 'default' || !layout.headers;
