import type { Ctx } from '../../runtime/context';

/**
 * The answer of an accepted send (202 `{event_id}`): the bare ID for `-o id` and tables (for `$(…)`), the
 * object in the JSON formats. A 202 without `event_id` is still a success.
 */
export async function printAccepted(ctx: Ctx, res: Record<string, unknown> | undefined): Promise<void> {
  const body = res ?? {};
  const eventId = typeof body.event_id === 'string' ? body.event_id : undefined;
  if (ctx.settings.jq || (ctx.format !== 'id' && ctx.format !== 'table')) return ctx.out.item(body);
  if (eventId) return ctx.out.raw(eventId);
  return ctx.msg('accepted (the service returned no event_id)');
}
