import type { Crud } from '../api/resources';
import type { Ctx } from '../runtime/context';
import type { BulkTarget } from '../bulk/execute';
import { selectResources, type SessionSelectors } from './selectors';

/** Pages of the largest size the service serves: a selection reads the whole list. */
const SELECT_PAGE = 1000;

/** The resources a selection picks, fixed before the first write, each with what the consent prompt shows of it. */
export async function selectedTargets(ctx: Ctx, api: Pick<Crud, 'list'>, sel: SessionSelectors): Promise<BulkTarget[]> {
  const c = await ctx.api();
  const targets: BulkTarget[] = [];
  for await (const o of selectResources((q, lo) => api.list(c, q, lo), sel, ctx.now(), { all: true, pageSize: SELECT_PAGE })) {
    const { id, name, status, archived_at } = o;
    targets.push({ id: String(id), row: { id, name, status, archived_at } });
  }
  return targets;
}
