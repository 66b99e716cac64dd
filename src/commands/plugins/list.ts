import type { Command } from 'commander';
import { plugins } from '../../api/plugins';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { PLUGIN_CATEGORIES, PLUGIN_LIST_SCOPES } from '../../wire/limits';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { LIST_FLAGS, listOptions, sortedBy, type ListPage } from '../../cli/verbs/resource';
import { PLUGIN_COLUMNS } from './columns';

/** `svc plugins list [--query T] [--category C] [--scope S] [list flags]`. */
export interface PluginListOptions {
  query: Record<string, string | undefined>;
  list: ListPage;
}

/** `svc plugins list`'s flags: the enum flags show their choices in help and completion; pluginQuery checks them, so its message can explain. */
export const PLUGIN_LIST_FLAGS = flagTable({
  query: { flags: '--query <text>', description: 'case-insensitive match over name, description and keywords' },
  category: { flags: '--category <category>', description: 'only plugins in this category', shownChoices: PLUGIN_CATEGORIES },
  scope: { flags: '--scope <scope>', description: 'only official or only project plugins', shownChoices: PLUGIN_LIST_SCOPES },
  ...LIST_FLAGS,
});

export const parsePluginList = (_args: string[], flags: FlagsOf<typeof PLUGIN_LIST_FLAGS>): PluginListOptions => ({
  query: pluginQuery(flags),
  list: listOptions(flags),
});

/** The filters the service accepts, checked before any request. */
export function pluginQuery(opts: { query?: string; category?: string; scope?: string }): Record<string, string | undefined> {
  if (opts.scope !== undefined && !(PLUGIN_LIST_SCOPES as readonly string[]).includes(opts.scope)) {
    const why = opts.scope === 'org' || opts.scope === 'user' ? ` ("${opts.scope}" is a visibility scope the list filter does not accept)` : '';
    throw new UsageError(`--scope must be official or project, or omitted for both${why}`);
  }
  if (opts.category !== undefined && !(PLUGIN_CATEGORIES as readonly string[]).includes(opts.category)) {
    throw new UsageError(`--category must be one of ${PLUGIN_CATEGORIES.join(', ')} (got "${opts.category}")`);
  }
  return { query: opts.query, category: opts.category, scope: opts.scope };
}

export async function runList(ctx: Ctx, o: PluginListOptions): Promise<void> {
  await ctx.out.list(await sortedBy(plugins.list(await ctx.api(), o.query, o.list), o.list), PLUGIN_COLUMNS);
}

export function addPluginList(group: Command, kit: Kit): Command {
  const cmd = addFlags(group.command('list').description('List plugins (official and project; archived ones are omitted)'), PLUGIN_LIST_FLAGS);
  examples(cmd, ['svc plugins list', 'svc plugins list --scope project --category dev_tools', 'svc plugins list --query sheet -q']);
  return cmd.action(kit.verb(parsePluginList, runList));
}
