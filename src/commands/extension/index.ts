import type { Command } from 'commander';
import type { Ctx } from '../../runtime/context';
import { examples, noOptions, type Kit } from '../../cli/action';
import { listExtensions } from '../../cli/extensions';
import { printsNoIds } from '../../cli/text-output';

export async function runList(ctx: Ctx, isCommand: (word: string) => boolean): Promise<void> {
  const aliases = ctx.settings.config.aliases ?? {};
  const rows = listExtensions(ctx.io.env, (name) => isCommand(name) || Object.hasOwn(aliases, name));
  await ctx.out.list(rows, [
    { header: 'NAME', get: (r) => r.name },
    { header: 'PATH', get: (r) => r.path },
  ]);
}

export default function build(group: Command, kit: Kit): void {
  const list = group
    .command('list')
    .description('List the extensions: executables named svc-NAME on PATH, the first of each name (a command or an alias of that name wins)');
  examples(list, ['svc extension list', 'svc extension list -o json']);
  printsNoIds(list, 'extensions have names, not IDs (try --jq)');
  list.action(kit.verb(noOptions, (ctx) => runList(ctx, kit.tree.isCommand)));
}
