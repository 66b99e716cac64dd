import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { addChildList } from '../../cli/verbs/resource';
import { RESOURCE_COLUMNS } from './columns';
import { RECENT_SESSIONS } from './pick';

/** `svc sessions resources get SESSION RESOURCE`. */
export interface ResourceGetOptions {
  session: string;
  resource: string;
}

export const parseResourceGet = ([session, resource]: string[]): ResourceGetOptions => ({ session, resource });

export async function runResourceGet(ctx: Ctx, o: ResourceGetOptions): Promise<void> {
  await ctx.out.item(await sessions.resource(await ctx.api(), o.session, o.resource), RESOURCE_COLUMNS);
}

/** `svc sessions resources list|get`: the session's resource bindings (files mounted at creation or by message). */
export function addResources(group: Command, kit: Kit): void {
  const resources = group.command('resources').description('List and show the resources bound to a session');

  // Assumption (docs/service.md): `GET /v1/sessions/{id}/resources` lists the bindings as a page.
  addChildList(resources, kit, {
    name: 'list',
    parent: { arg: '<session>', description: 'session ID', pick: RECENT_SESSIONS },
    description: 'List the resource bindings of a session',
    columns: RESOURCE_COLUMNS,
    examples: ['svc sessions resources list SESSION_ID', 'svc sessions resources list SESSION_ID -o json --jq ".[].file_id"'],
    items: async (ctx, sid, lo) => sessions.resources(await ctx.api(), sid, lo),
  });

  const get = resources
    .command('get')
    .argument('<session>', 'session ID')
    .argument('<resource>', 'binding ID (not the file ID)')
    .description('Show one resource binding of a session');
  examples(get, ['svc sessions resources get SESSION_ID RESOURCE_ID']);
  get.action(kit.verb(parseResourceGet, runResourceGet));
}
