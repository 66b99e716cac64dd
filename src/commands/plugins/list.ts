import { Option, type Command } from 'commander';
import { plugins } from '../../api/plugins';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { PLUGIN_CATEGORIES, PLUGIN_LIST_SCOPES } from '../../wire/limits';
import { examples, type Flags, type Kit } from '../../cli/action';
import { addListFlags, listOptions, sortedBy, type ListPage } from '../../cli/verbs/resource';
import { PLUGIN_COLUMNS } from './columns';

/** An enum flag shown with its choices in help and completion, checked in the run so the message can explain. */
function enumOption(flags: string, description: string, choices: readonly string[]): Option {
  const o = new Option(flags, description);
  o.argChoices = [...choices];
  return o;
}

/** `svc plugins list [--query T] [--category C] [--scope S] [list flags]`. */
export interface PluginListOptions {
  query: Record<string, string | undefined>;
  list: ListPage;
}

export const parsePluginList = (_args: string[], flags: Flags): PluginListOptions => ({ query: pluginQuery(flags), list: listOptions(flags) });

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
  const cmd = group
    .command('list')
    .description('List plugins (official and project; archived ones are omitted)')
    .option('--query <text>', 'case-insensitive match over name, description and keywords')
    .addOption(enumOption('--category <category>', 'only plugins in this category', PLUGIN_CATEGORIES))
    .addOption(enumOption('--scope <scope>', 'only official or only project plugins', PLUGIN_LIST_SCOPES));
  addListFlags(cmd);
  examples(cmd, ['svc plugins list', 'svc plugins list --scope project --category dev_tools', 'svc plugins list --query sheet -q']);
  return cmd.action(kit.verb(parsePluginList, runList));
}
