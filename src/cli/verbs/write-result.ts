import type { Obj } from '../../api/resources';
import type { Ctx } from '../../runtime/context';

/**
 * Prints the returned object, or for an empty 204 `{id, <verb>: true}` so scripts see a result. A table shows
 * `deleted ID` for a bare marker too: `{id, deleted: true}`, or the public API's `{id, type: "<x>_deleted"}`.
 * `name` is the name given for the ID, when one was: the marker says which resource it stood for.
 */
export async function done(ctx: Ctx, id: string, obj: Obj | undefined, verb: string, name?: string): Promise<void> {
  if (obj && !(ctx.format === 'table' && isMarker(obj, verb))) return ctx.out.item(obj);
  if (ctx.format === 'table') return ctx.msg(name === undefined ? `${verb} ${id}` : `${verb} ${id} (${name})`);
  return ctx.out.item({ id, ...(name === undefined ? {} : { name }), [verb]: true });
}

function isMarker(obj: Obj, verb: string): boolean {
  return obj[verb] === true || (typeof obj.type === 'string' && obj.type.endsWith(`_${verb}`));
}
