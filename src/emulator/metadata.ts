import { isObject } from '../wire/is-object';
import { setOwn } from '../wire/own-counts';

/**
 * `metadata` of a validated PATCH body merged into the stored map (docs/service.md common shapes; docs/decisions/metadata.md):
 * a string upserts its key, null deletes it, keys not named are kept, and `metadata: null` clears the map. The body's
 * `metadata` becomes the whole map to store; a body without it is left as it is.
 */
export function mergeMetadata(body: Record<string, unknown>, stored: unknown): void {
  if (body.metadata === undefined) return;
  if (body.metadata === null) {
    body.metadata = {};
    return;
  }
  const next: Record<string, string> = {};
  if (isObject(stored)) for (const [k, v] of Object.entries(stored)) if (typeof v === 'string') setOwn(next, k, v);
  for (const [k, v] of Object.entries(body.metadata as Record<string, unknown>)) {
    if (v === null) delete next[k];
    else setOwn(next, k, v as string);
  }
  body.metadata = next;
}
