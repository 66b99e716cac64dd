/*
 * `metadata` on PATCH is a patch (docs/decisions/metadata.md; docs/service.md common shapes, as the official SDK's
 * `AgentUpdateParams.metadata`): a key set to a string is upserted, a key set to null deleted, the keys not named are
 * kept, and `metadata: null` clears the map. svc sends only the keys it changes, so two updates of different keys
 * never undo each other, and no update needs to read the map first.
 */
import { isObject } from './is-object';

/** A metadata PATCH: the keys to upsert, and null for the keys to delete. */
export type MetadataPatch = Record<string, string | null>;

/** `base` (a patch already, e.g. the metadata of --data) with `set` upserted and `remove` deleted (null). */
export function editPatch(base: unknown, set: Record<string, string>, remove: string[]): MetadataPatch {
  const out: MetadataPatch = {};
  const put = (k: string, v: string | null) => Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
  if (isObject(base)) for (const [k, v] of Object.entries(base)) put(k, typeof v === 'string' ? v : null);
  for (const [k, v] of Object.entries(set)) put(k, v);
  for (const k of remove) put(k, null);
  return out;
}

/**
 * The patch that makes `have` (the live map) into `want` (the whole map wanted; null or absent: none): the keys whose
 * value changes, and null for each live key `want` does not hold. Empty when nothing changes.
 */
export function patchTowards(want: unknown, have: unknown): MetadataPatch {
  const w = isObject(want) ? want : {};
  const h = isObject(have) ? have : {};
  const set: Record<string, string> = {};
  for (const [k, v] of Object.entries(w)) if (typeof v === 'string' && (!Object.hasOwn(h, k) || h[k] !== v)) set[k] = v;
  return editPatch(
    {},
    set,
    Object.keys(h).filter((k) => !Object.hasOwn(w, k)),
  );
}
