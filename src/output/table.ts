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
 * Aligned columns; the last column is cut to the terminal width. Control characters in cells are shown escaped,
 * never obeyed, whatever stdout is: a piped table often ends on a terminal (`| less -R`, `| tee`).
 */
export function renderTable<T>(rows: T[], columns: Column<T>[], style: TableStyle): string {
  const cells = rows.map((r) => columns.map((c) => escapeControls(cellText(c.get(r)))));
  const headers = style.headers !== false;
  const widths = columns.map((c, i) => Math.max(headers ? displayWidth(c.header) : 0, ...cells.map((row) => displayWidth(row[i]))));
  const fit = (line: string[]): string[] => {
    if (!style.width) return line;
    let used = 0;
    return line.map((cell, i) => {
      const room = Math.max(style.width! - used - 1, 1);
      const w = Math.min(widths[i], room);
      used += w + 2;
      return padToWidth(truncate(cell, w), i === line.length - 1 ? 0 : w);
    });
  };
  const pad = (line: string[]): string[] => line.map((cell, i) => (i === line.length - 1 ? cell : padToWidth(cell, widths[i])));
  const head = (style.width ? fit : pad)(columns.map((c) => c.header))
    .join('  ')
    .trimEnd();
  const body = cells.map((row) => (style.width ? fit : pad)(row).join('  ').trimEnd());
  const lines = headers ? [style.header(head), ...body] : body;
  return lines.length ? lines.join('\n') + '\n' : '';
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
