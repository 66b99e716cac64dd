import type { Command } from 'commander';
import type { ApiClient } from '../../api/client';
import type { Obj } from '../../api/resources';
import type { Ctx } from '../../runtime/context';
import type { Column } from '../../output/table';
import { examples, type Kit } from '../action';
import { pickable, type PickSource } from '../pick-arg';

/** A verb that acts on one object by ID and prints what the service answers (`dreams cancel`, `triggers pause`). */
export interface ItemAction {
  name: string;
  arg: { name: string; description: string };
  description: string;
  examples: string[];
  columns: Column[];
  send: (c: ApiClient, id: string) => Promise<Obj>;
  /** Where a picker finds recent ones when the ID is missing on a terminal. */
  pick?: PickSource;
}

export interface ItemActionOptions {
  action: ItemAction;
  id: string;
}

export function parseItemAction(action: ItemAction, [id]: string[]): ItemActionOptions {
  return { action, id };
}

export async function runItemAction(ctx: Ctx, o: ItemActionOptions): Promise<void> {
  await ctx.out.item(await o.action.send(await ctx.api(), o.id), o.action.columns);
}

export function addItemAction(group: Command, kit: Kit, action: ItemAction): Command {
  const cmd = group.command(action.name).argument(action.arg.name, action.arg.description).description(action.description);
  if (action.pick) pickable(cmd, action.pick);
  examples(cmd, action.examples);
  return cmd.action(kit.verb((args) => parseItemAction(action, args), runItemAction));
}
