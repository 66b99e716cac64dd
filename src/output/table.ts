export interface Column<T = any> {
  header: string;
  get: (row: T) => unknown;
}

export interface TableStyle {
  width?: number;
  header: (s: string) => string;
}

/** Aligned columns; the last column is cut to the terminal width. */
export function renderTable<T>(rows: T[], columns: Column<T>[], style: TableStyle): string {
  const cells = rows.map((r) => columns.map((c) => cellText(c.get(r))));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((row) => row[i].length)));
  const fit = (line: string[]): string[] => {
    if (!style.width) return line;
    let used = 0;
    return line.map((cell, i) => {
      const room = Math.max(style.width! - used - 1, 1);
      const w = Math.min(widths[i], room);
      used += w + 2;
      return truncate(cell, w).padEnd(i === line.length - 1 ? 0 : w);
    });
  };
  const pad = (line: string[]): string[] => line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i])));
  const head = (style.width ? fit : pad)(columns.map((c) => c.header)).join('  ').trimEnd();
  const body = cells.map((row) => (style.width ? fit : pad)(row).join('  ').trimEnd());
  return [style.header(head), ...body].join('\n') + '\n';
}

/** A single object as `key  value` lines. */
export function renderRecord(obj: Record<string, unknown>, style: TableStyle): string {
  const keys = Object.keys(obj);
  const w = Math.max(0, ...keys.map((k) => k.length));
  return keys
    .map((k) => {
      const line = `${style.header(k.padEnd(w))}  ${cellText(obj[k])}`;
      return style.width ? truncate(line, style.width + (line.length - stripAnsi(line).length)) : line;
    })
    .join('\n') + '\n';
}

export function cellText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v.replace(/\s+/g, ' ');
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

export function truncate(s: string, width: number): string {
  if (s.length <= width) return s;
  if (width <= 1) return s.slice(0, width);
  return s.slice(0, width - 1) + '…';
}

function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\u001b\[[0-9;]*m/g, '');
}
