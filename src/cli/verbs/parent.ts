import type { ApiClient } from '../../api/client';
import type { Crud } from '../../api/resources';
import { byIdOrName, resolveId } from '../../selection/names';

/** The resource a nested verb's parent argument is one of (its manifest entry gives the noun). */
export type ParentApi = Pick<Crud, 'get' | 'list' | 'entry'>;

/**
 * `act` under the parent an argument names (docs/behaviour.md "Selecting"): first with the argument as its ID, so an ID costs
 * no extra request; on a 404, with the ID of the one parent of that exact name. Two of that name are exit 2.
 */
export function inParent<T>(c: ApiClient, parent: ParentApi, ref: string, act: (parentId: string) => Promise<T>): Promise<T> {
  return byIdOrName(c, parent, parent.entry.noun, ref, act);
}

/**
 * A keyed create under a parent named by ID or name. The service stores the 404 of the try as an ID under the key,
 * so the create under the parent found by name goes with a key made from both: the same again on a rerun.
 */
export function createInParent<T>(
  c: ApiClient,
  parent: ParentApi,
  ref: string,
  key: string,
  create: (parentId: string, key: string) => Promise<T>,
): Promise<T> {
  return inParent(c, parent, ref, async (id) => {
    if (id === ref) return create(id, key);
    const { createHash } = await import('node:crypto');
    return create(id, createHash('sha256').update(`${key}\0${id}`).digest('hex'));
  });
}

/**
 * The ID of the parent an argument names, read before an upload: its body is a stream that is sent once, so it is
 * not tried under a name first. One GET of the parent when it is an ID.
 */
export function parentId(c: ApiClient, parent: ParentApi, ref: string): Promise<string> {
  return resolveId(c, parent, parent.entry.noun, ref);
}

/** A listing under a parent named by ID or name: its first page is read here, so a name is looked up before anything prints. */
export function listInParent<T>(c: ApiClient, parent: ParentApi, ref: string, items: (parentId: string) => AsyncIterable<T>): Promise<AsyncIterable<T>> {
  return inParent(c, parent, ref, (id) => primed(items(id)));
}

/** The same items, the first one already awaited: a listing's first request answers (or throws) now, not when printed. */
async function primed<T>(items: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const it = items[Symbol.asyncIterator]();
  const first = await it.next();
  return (async function* () {
    try {
      if (first.done) return;
      yield first.value;
      for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
    } finally {
      await it.return?.();
    }
  })();
}
