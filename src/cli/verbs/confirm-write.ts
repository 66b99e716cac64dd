import type { ApiClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { Obj } from '../../api/resources';
import type { Ctx } from '../../runtime/context';
import { withNote } from '../../runtime/errors';
import { diffValue } from '../../apply/diff';

/** What a read of the resource shows of a write: applied (with the object to print), or not. */
export type Seen<T> = { applied: true; result: T } | { applied: false };

/**
 * A write answered `server_error` may have been applied (the service stores no 5xx for replay), so it
 * is not sent again until a read of the resource confirms its outcome. Applied: the read object is the result,
 * with a note on stderr. Not applied: the write is sent once more (the same request, the same intent), unless
 * `--max-retries 0`. A read that fails leaves the first error standing, saying the outcome is unknown.
 */
export async function confirmedWrite<T>(ctx: Ctx, c: ApiClient, write: () => Promise<T>, read: () => Promise<Seen<T>>, what: string): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (!(e instanceof ApiError) || e.type !== 'server_error') throw e;
    let seen: Seen<T>;
    try {
      seen = await read();
    } catch {
      throw withNote(e, `reading ${what} back failed, so whether the write was applied is unknown: check before running it again`);
    }
    const id = e.requestId ? ` (request_id=${e.requestId})` : '';
    if (seen.applied) {
      await ctx.msg(`note: the service answered server_error${id}, but reading ${what} back shows the write was applied`);
      return seen.result;
    }
    if (c.maxRetries === 0) throw withNote(e, `reading ${what} back shows the write was not applied`);
    await ctx.msg(`note: the service answered server_error${id}; reading ${what} back shows the write was not applied, so it is sent again`);
    return write();
  }
}

/** Reads the resource: the write is applied when `shows` holds of it, and then it is the result. */
export function readBack(get: () => Promise<Obj>, shows: (current: Obj) => boolean): () => Promise<Seen<Obj>> {
  return async () => {
    const current = await get();
    return shows(current) ? { applied: true, result: current } : { applied: false };
  };
}

/** An update shows when every field sent reads back as sent (members the service adds beside them do not count). */
export function showsUpdate(sent: Obj, current: Obj): boolean {
  return diffValue('', sent, current).every((change) => change.op === 'remove');
}

/** A read that answers 404 shows a delete. */
export async function readDeleted<T>(get: () => Promise<unknown>): Promise<Seen<T | undefined>> {
  try {
    await get();
    return { applied: false };
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return { applied: true, result: undefined };
    throw e;
  }
}
