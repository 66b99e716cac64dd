import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { Crud, Obj } from '../api/resources';
import { UsageError } from '../errors';

/** The largest page the service serves: a name lookup reads the whole list. */
const LOOKUP_PAGE = 1000;

/**
 * The resource an argument names: tried as an ID first (IDs stay opaque); when that is not found, the one
 * resource whose `name` (or `display_name`) is exactly the argument. No match keeps the 404 (exit 6); two or
 * more are exit 2 listing them.
 */
export async function resolveRef(c: ApiClient, api: Pick<Crud, 'get' | 'list'>, noun: string, ref: string): Promise<Obj> {
  return byIdOrName(c, api, noun, ref, (id) => api.get(c, id));
}

/**
 * `act` on the resource an argument names: first with the argument as its ID (no extra request when it is one);
 * on a 404, with the ID of the one resource of that exact name. No match keeps the 404; two are exit 2.
 */
export async function byIdOrName<T>(c: ApiClient, api: Pick<Crud, 'list'>, noun: string, ref: string, act: (id: string) => Promise<T>): Promise<T> {
  try {
    return await act(ref);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e;
    const found: Obj[] = [];
    try {
      for await (const item of api.list(c, {}, { all: true, pageSize: LOOKUP_PAGE })) if (nameOf(item) === ref) found.push(item);
    } catch {
      // The lookup by name is a fallback: when it cannot run, the answer about the ID stands.
      throw e;
    }
    if (found.length > 1) throw new UsageError(`${noun} name "${ref}" is ambiguous: ${found.map((f) => f.id).join(', ')} all have it; give the ID`);
    if (found.length === 0) throw e;
    return act(String(found[0].id));
  }
}

/** The ID an argument names (see resolveRef). */
export async function resolveId(c: ApiClient, api: Pick<Crud, 'get' | 'list'>, noun: string, ref: string): Promise<string> {
  return String((await resolveRef(c, api, noun, ref)).id);
}

function nameOf(item: Obj): unknown {
  return item.name ?? item.display_name;
}
