import { UsageError } from '../runtime/errors';

/** A dotted path into an object (kubectl's custom-columns syntax): member names and `[n]` indexes. */
export type Path = (string | number)[];

const SEGMENT = /^(?:\.([A-Za-z0-9_$-]+)|\[(\d+)\])/;

/** `.a.b[0].c` (the leading dot and kubectl's `{…}` are optional) as segments; anything else is exit 2 naming it. */
export function parsePath(text: string, what: string): Path {
  let rest = text.trim();
  if (rest.startsWith('{') && rest.endsWith('}')) rest = rest.slice(1, -1);
  if (rest !== '' && !rest.startsWith('.') && !rest.startsWith('[')) rest = '.' + rest;
  const path: Path = [];
  while (rest !== '') {
    const m = SEGMENT.exec(rest);
    if (!m) throw new UsageError(`${what}: "${text}" is not a path such as .metadata.name or .items[0].id (at "${rest}")`);
    path.push(m[1] ?? Number(m[2]));
    rest = rest.slice(m[0].length);
  }
  if (!path.length) throw new UsageError(`${what}: "${text}" names no member: use a path such as .name`);
  return path;
}

/**
 * The value at `path`, or undefined where a member or index is missing. Own members only: `.constructor`,
 * `.toString` or `.__proto__` are members the object does not have, not what every object inherits.
 */
export function pathValue(obj: unknown, path: Path): unknown {
  let v = obj;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    if (typeof seg === 'number' ? !Array.isArray(v) : Array.isArray(v)) return undefined;
    if (!Object.hasOwn(v, seg)) return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

/** A path written back as `.a.b[0]`. */
export const pathText = (path: Path): string => path.map((seg) => (typeof seg === 'number' ? `[${seg}]` : `.${seg}`)).join('');

/** Rows in the order of their values at `path`: numbers by size, anything else by its text; a missing value last; ties keep their order. */
export function sortByPath<T>(rows: T[], path: Path): T[] {
  const keyed = rows.map((row, i) => ({ row, i, v: pathValue(row, path) }));
  // As kubectl refuses a sort key that no object has: a typo would otherwise sort nothing, silently.
  if (keyed.length && keyed.every((k) => k.v === undefined))
    throw new UsageError(`--sort-by: no row has a value at ${pathText(path)} (check the path against -o json)`);
  keyed.sort((a, b) => compareValues(a.v, b.v) || a.i - b.i);
  return keyed.map((k) => k.row);
}

function compareValues(a: unknown, b: unknown): number {
  const missingA = a === undefined || a === null;
  const missingB = b === undefined || b === null;
  if (missingA || missingB) return missingA === missingB ? 0 : missingA ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [sortText(a), sortText(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

const sortText = (v: unknown): string => (typeof v === 'object' ? JSON.stringify(v) : String(v));
