import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { Crud, Obj } from '../api/resources';
import { UsageError, withNote } from '../runtime/errors';

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
 * on a 404, with the ID of the one resource of that exact name, told to `named` first. No match keeps the 404; two
 * are exit 2. An argument shaped like this resource's IDs keeps its 404 too: the resource it named is gone, and
 * acting on another that happens to bear that name (a delete run twice) would act on the wrong one.
 */
export async function byIdOrName<T>(
  c: ApiClient,
  api: Pick<Crud, 'list'>,
  noun: string,
  ref: string,
  act: (id: string) => Promise<T>,
  named?: (id: string) => void,
): Promise<T> {
  try {
    return await act(ref);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e;
    const found: Obj[] = [];
    const shape = new IdShape();
    try {
      for await (const item of api.list(c, {}, { all: true, pageSize: LOOKUP_PAGE })) {
        shape.see(item.id);
        if (nameOf(item) === ref) found.push(item);
      }
    } catch {
      // The lookup by name is a fallback: when it cannot run, the answer about the ID stands.
      throw e;
    }
    if (found.length > 0 && shape.fits(ref)) {
      const which = found.map((f) => f.id).join(', ');
      throw withNote(e, `"${ref}" has the shape of ${noun} IDs, so it is not taken as a name (the ${noun} named so is ${which}: give that ID)`);
    }
    if (found.length > 1) throw new UsageError(`${noun} name "${ref}" is ambiguous: ${found.map((f) => f.id).join(', ')} all have it; give the ID`);
    if (found.length === 0) throw e;
    const id = String(found[0].id);
    named?.(id);
    return act(id);
  }
}

/**
 * What the IDs of one resource share, as the service makes them: the part up to their first `_` or `-` (`agent_`)
 * when every listed ID has the same one. IDs stay opaque: this is read from the service's own IDs, not assumed,
 * and only decides whether a missing argument may be a name.
 */
class IdShape {
  private prefix?: string | null;

  see(id: unknown): void {
    if (this.prefix === null) return;
    const m = typeof id === 'string' ? /^[^_-]+[_-]/.exec(id) : null;
    this.prefix = m && (this.prefix === undefined || this.prefix === m[0]) ? m[0] : null;
  }

  /** `ref` looks like one of these IDs (its prefix and something after it). */
  fits(ref: string): boolean {
    return typeof this.prefix === 'string' && ref.length > this.prefix.length && ref.startsWith(this.prefix);
  }
}

/** The ID an argument names (see resolveRef). */
export async function resolveId(c: ApiClient, api: Pick<Crud, 'get' | 'list'>, noun: string, ref: string): Promise<string> {
  return String((await resolveRef(c, api, noun, ref)).id);
}

function nameOf(item: Obj): unknown {
  return item.name ?? item.display_name;
}
