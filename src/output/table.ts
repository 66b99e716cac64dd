import { escapeControls } from './controls';
import { cutToWidth, displayWidth, padToWidth } from './width';
import type { WireObject } from '../wire/resources';

/** A table column over rows of `T` (a resource object of the service unless said otherwise). */
export interface Column<T = WireObject> {
  header: string;
  get: (row: T) => unknown;
  /** Shown by `-o wide` only: what did not fit the default table. */
  wide?: boolean;
}

export interface TableStyle {
  width?: number;
  header: (s: string) => string;
  /** false: no header line (`--no-headers`), and the columns as wide as their cells. */
  headers?: boolean;
}

/**
 * Aligned columns. On a terminal (`style.width`) the table fits the width by the rules of docs/decisions/tables.md
 * (`fitWidths`): cells are cut with `…` to their column, never past the line. Control characters in cells are shown
 * escaped, never obeyed, whatever stdout is: a piped table often ends on a terminal (`| less -R`, `| tee`).
 */
export function renderTable<T>(rows: T[], columns: Column<T>[], style: TableStyle): string {
  const cells = rows.map((r) => columns.map((c) => escapeControls(cellText(c.get(r)))));
  const headers = style.headers !== false;
  const natural = columns.map((c, i) => Math.max(headers ? displayWidth(c.header) : 0, ...cells.map((row) => displayWidth(row[i]))));
  const widths = style.width
    ? fitWidths(
        natural,
        columns.map((c) => c.header),
        style.width,
      )
    : natural;
  const line = (row: string[]): string =>
    row
      .map((cell, i) => padToWidth(truncate(cell, widths[i]), i === row.length - 1 ? 0 : widths[i]))
      .join('  ')
      .trimEnd();
  const head = line(columns.map((c) => c.header));
  const body = cells.map(line);
  const lines = headers ? [style.header(head), ...body] : body;
  return lines.length ? lines.join('\n') + '\n' : '';
}

/** Columns that never shrink (docs/decisions/tables.md): IDs (`ID`, `…_ID`), the state (`STATUS`, `STATE`) and a watch's `EVENT`. */
export const keepsWidth = (header: string): boolean => /(^|_)ID$/.test(header) || ['STATUS', 'STATE', 'EVENT'].includes(header);

/** The narrowest a shrinking column gets before the widest of the rest gives more: its header, at least this. */
const MIN_COLUMN = 5;

/**
 * Column widths that fit `width` with `gap` between columns (docs/decisions/tables.md): the widest column that may
 * shrink gives first, one column at a time, until the line fits or every such column is down to its header's width
 * (at least MIN_COLUMN); then they go on shrinking, widest first, to 1. IDs and the state never shrink: a line of
 * them alone wider than the terminal wraps.
 */
export function fitWidths(widths: number[], headers: string[], width: number, gap = 2): number[] {
  const out = widths.slice();
  const total = () => out.reduce((a, b) => a + b, 0) + gap * Math.max(0, out.length - 1);
  for (const floor of [(i: number) => Math.min(widths[i], Math.max(MIN_COLUMN, displayWidth(headers[i]))), () => 1]) {
    while (total() > width) {
      let widest = -1;
      for (let i = 0; i < out.length; i++) if (!keepsWidth(headers[i]) && out[i] > floor(i) && (widest < 0 || out[i] >= out[widest])) widest = i;
      if (widest < 0) break;
      const next = Math.max(floor(widest), ...out.map((w, i) => (i !== widest && !keepsWidth(headers[i]) ? Math.min(w, out[widest] - 1) : 0)));
      out[widest] = Math.max(next, out[widest] - (total() - width));
    }
  }
  return out;
}

/** A single object as `key  value` lines. */
export function renderRecord(obj: Record<string, unknown>, style: TableStyle): string {
  const keys = Object.keys(obj);
  const w = Math.max(0, ...keys.map((k) => escapeControls(k).length));
  return (
    keys
      .map((k) => {
        const line = `${style.header(escapeControls(k).padEnd(w))}  ${escapeControls(cellText(obj[k]))}`;
        return style.width ? truncate(line, style.width + (line.length - stripAnsi(line).length)) : line;
      })
      .join('\n') + '\n'
  );
}

export function cellText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v.replace(/\s+/g, ' ');
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

/** Text cut to `width` terminal columns (CJK and emoji take two), ending in `…` when cut. */
export function truncate(s: string, width: number): string {
  return cutToWidth(s, width);
}

function stripAnsi(s: string): string {
  return s.replace(/\u001b\[[0-9;]*m/g, '');
}
