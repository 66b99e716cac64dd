import { isDeepStrictEqual } from 'node:util';
import { isObject } from '../wire/is-object';
import { patchTowards } from '../wire/metadata';

/** One difference between the file and the live object, at a readable path (`config.proxy.mode`, `tools[0].name`). */
export interface Change {
  op: 'add' | 'change' | 'remove';
  path: string;
  old?: unknown;
  new?: unknown;
}

type Doc = Record<string, unknown>;

/** Shown instead of a write-only value. */
export const MASK = '***';

/** Absent, null, "", [] and {} all mean "nothing": a server filling in an empty default is no difference. */
export function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObject(v) && Object.keys(v).length === 0;
}

/** The empty value of a field, after the type of its live value: "", [] or {}; undefined when none is defined. */
function emptyOf(have: unknown): unknown {
  if (typeof have === 'string') return '';
  if (Array.isArray(have)) return [];
  return isObject(have) ? {} : undefined;
}

/**
 * A PATCH clears a field with the empty value that field defines, never null. A null in the file
 * (YAML's `description:` with no value is one) becomes "", [] or {} after the live value; with nothing live to
 * go by, the member is left out, as absent and empty mean the same. Array elements are sent as written.
 */
export function withoutNulls(want: unknown, have: unknown): unknown {
  if (want === null) return emptyOf(have);
  if (!isObject(want)) return want;
  const out: Doc = {};
  for (const [k, v] of Object.entries(want)) {
    const cleared = withoutNulls(v, isObject(have) ? have[k] : undefined);
    if (cleared !== undefined) out[k] = cleared;
  }
  return out;
}

const childPath = (path: string, key: string | number): string => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/**
 * Deep difference of `want` (the file) against `have` (the live object), as leaf changes. Objects are
 * compared member by member, in both directions (a member the file dropped is a removal); arrays of the
 * same length element by element, otherwise as wholes; an empty value equals an absent one.
 */
export function diffValue(path: string, want: unknown, have: unknown, out: Change[] = []): Change[] {
  if (isEmpty(want) && isEmpty(have)) return out;
  if (isObject(want) && isObject(have)) {
    for (const k of new Set([...Object.keys(want), ...Object.keys(have)])) {
      if (!(k in want)) {
        if (!isEmpty(have[k])) out.push({ op: 'remove', path: childPath(path, k), old: have[k] });
      } else diffValue(childPath(path, k), want[k], have[k], out);
    }
    return out;
  }
  if (Array.isArray(want) && Array.isArray(have) && want.length === have.length) {
    want.forEach((w, i) => diffValue(childPath(path, i), w, have[i], out));
    return out;
  }
  if (isDeepStrictEqual(want, have)) return out;
  if (have === undefined) out.push({ op: 'add', path, new: want });
  else out.push({ op: 'change', path, old: have, new: want });
  return out;
}

/** Dotted patterns with `*` for any array index or map key, e.g. `mcp_servers.*.headers`. */
export type WriteOnly = string[];

function walk(v: unknown, parts: string[], at: (parent: Doc, key: string) => void): void {
  if (parts.length === 0) return;
  const [head, ...rest] = parts;
  const children: Array<[Doc | unknown[], string | number]> = [];
  if (Array.isArray(v) && head === '*') v.forEach((_, i) => children.push([v, i]));
  else if (isObject(v)) for (const k of head === '*' ? Object.keys(v) : head in v ? [head] : []) children.push([v, k]);
  for (const [parent, key] of children) {
    if (rest.length === 0) at(parent as Doc, String(key));
    else walk((parent as Doc)[key as string], rest, at);
  }
}

/** A copy without the write-only members: what can be compared with a live object, which never holds them. */
export function stripWriteOnly<T>(v: T, writeOnly: WriteOnly): T {
  const copy = structuredClone(v);
  for (const p of writeOnly) walk(copy, p.split('.'), (parent, key) => delete parent[key]);
  return copy;
}

/** A copy with every write-only value masked (a map keeps its keys): safe to print. */
export function maskWriteOnly<T>(v: T, writeOnly: WriteOnly): T {
  const copy = structuredClone(v);
  for (const p of writeOnly) {
    walk(copy, p.split('.'), (parent, key) => {
      const secret = parent[key];
      parent[key] = isObject(secret) ? Object.fromEntries(Object.keys(secret).map((k) => [k, MASK])) : MASK;
    });
  }
  return copy;
}

/** True when a write-only member is present anywhere in `v`. */
export function hasWriteOnly(v: unknown, writeOnly: WriteOnly): boolean {
  let found = false;
  for (const p of writeOnly) walk(v, p.split('.'), () => (found = true));
  return found;
}

/** `+ path: value`, `~ path: old → new`, `- path: old`, values as compact JSON. */
export function renderChange(c: Change): string {
  const j = (v: unknown) => JSON.stringify(v);
  if (c.op === 'add') return `+ ${c.path}: ${j(c.new)}`;
  if (c.op === 'remove') return `- ${c.path}: ${j(c.old)}`;
  return `~ ${c.path}: ${j(c.old)} → ${j(c.new)}`;
}

/**
 * Compares only the members the file gives, each deeply (see diffValue); a member that differs anywhere is
 * PATCHed whole, as the file has it, because PATCH replaces a member, except `metadata`, whose PATCH is a patch: the
 * keys that change, null for those the file dropped. Write-only members cannot be read
 * back, so they are not compared (the caller decides when to send them again).
 * A null in the file is sent as the field's empty value (withoutNulls).
 */
export function plan(doc: Doc, live: Doc, writeOnly: WriteOnly): { patch: Doc; diff: Change[] } {
  const want = stripWriteOnly(doc, writeOnly);
  const have = stripWriteOnly(live, writeOnly) as Doc;
  const patch: Doc = {};
  const diff: Change[] = [];
  for (const k of Object.keys(want)) {
    const changes = diffValue(k, want[k], have[k]);
    // A PATCH's metadata is a patch (docs/decisions/metadata.md): the changed keys, and null for each one dropped.
    const sent = k === 'metadata' ? patchTowards(doc[k], live[k]) : withoutNulls(doc[k], live[k]);
    if (changes.length && sent !== undefined) {
      patch[k] = sent;
      diff.push(...changes);
    }
  }
  return { patch, diff };
}
