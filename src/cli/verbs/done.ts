import type { Obj } from '../../api/resources';
import type { Ctx } from '../../context';

/**
 * Prints the returned object, or for an empty 204 `{id, <verb>: true}` so scripts see a result. A table shows
 * `deleted ID` for a bare marker too: `{id, deleted: true}`, or the public API's `{id, type: "<x>_deleted"}`.
 */
export async function done(ctx: Ctx, id: string, obj: Obj | undefined, verb: string): Promise<void> {
  if (obj && !(ctx.format === 'table' && isMarker(obj, verb))) return ctx.out.item(obj);
  if (ctx.format === 'table') return ctx.msg(`${verb} ${id}`);
  return ctx.out.item({ id, [verb]: true });
}

function isMarker(obj: Obj, verb: string): boolean {
  return obj[verb] === true || (typeof obj.type === 'string' && obj.type.endsWith(`_${verb}`));
}
