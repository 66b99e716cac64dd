import type { ApiClient } from '../../api/client';
import type { WorkItem } from '../../api/work';
import type { Ctx } from '../../runtime/context';
import { NoEnvironmentKeyError } from '../../runtime/errors';

/**
 * The environment work key (SVC_ENVIRONMENT_KEY, else the profile's environment_key). Reads fall back to
 * the API key, which the service accepts there; poll, ack, heartbeat and stop do not.
 */
// Assumption (docs/service.md): get and list of work rows accept the API key; poll, ack, heartbeat and stop only worker credentials.
export async function workClient(ctx: Ctx, read: boolean): Promise<ApiClient> {
  const key = ctx.settings.environmentKey?.value;
  if (key) return ctx.client(key);
  if (read) return ctx.api();
  throw new NoEnvironmentKeyError();
}

/** The row without its `secret`: what every work command prints unless asked otherwise. */
export function withoutSecret(item: WorkItem): WorkItem {
  const { secret: _secret, ...rest } = item;
  return rest as WorkItem;
}
