import type { ApiClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import { memories } from '../../api/memory';
import type { Obj } from '../../api/resources';

/** The memory at PATH; the API has no path lookup, so the store's list is scanned page by page. */
export async function findByPath(c: ApiClient, store: string, path: string): Promise<Obj | undefined> {
  for await (const m of memories.list(c, store, {}, { all: true, pageSize: 1000 })) if (m.path === path) return m;
  return undefined;
}

/**
 * A read of one memory named by ID or by path, as `memories write` takes one: the ID is tried first (IDs are opaque),
 * and a 404 falls back to the memory at that path; none there leaves the 404 standing.
 */
export async function byIdOrPath<T>(c: ApiClient, store: string, memory: string, read: (id: string) => Promise<T>): Promise<T> {
  try {
    return await read(memory);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e;
    const found = await findByPath(c, store, memory);
    if (typeof found?.id !== 'string') throw e;
    return read(found.id);
  }
}
