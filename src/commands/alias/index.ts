import type { Command } from 'commander';
import { updateConfig } from '../../config/store';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { examples, noOptions, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { checkAlias } from '../../cli/aliases';
import { printsNoIds } from '../../cli/text-output';

/** `svc alias set NAME EXPANSION`. */
export interface AliasSetOptions {
  name: string;
  expansion: string;
  /** `--clobber`: replace an alias of that name (as gh's). */
  clobber: boolean;
}

/** `svc alias set`'s flags. */
export const ALIAS_SET_FLAGS = flagTable({
  clobber: { flags: '--clobber', description: 'replace an alias of that name' },
});

export const parseAliasSet = ([name, expansion]: string[], flags: FlagsOf<typeof ALIAS_SET_FLAGS>): AliasSetOptions => ({
  name,
  expansion,
  clobber: Boolean(flags.clobber),
});

/** `svc alias delete NAME`. */
export interface AliasNameOptions {
  name: string;
}

export const parseAliasName = ([name]: string[]): AliasNameOptions => ({ name });

export async function runSet(ctx: Ctx, { name, expansion, clobber }: AliasSetOptions, isCommand: (word: string) => boolean): Promise<void> {
  let replaced: string | undefined;
  // Checked against the config as read under the lock: two writers never both take a name.
  await updateConfig(
    ctx.settings.configFile,
    (data) => {
      const aliases = (data.aliases ??= Object.create(null) as Record<string, string>);
      checkAlias(name, expansion, aliases, isCommand, clobber);
      if (Object.hasOwn(aliases, name)) replaced = aliases[name];
      aliases[name] = expansion;
    },
    ctx.io.signal,
  );
  if (replaced !== undefined) await ctx.msg(`alias ${name} replaced (was ${replaced})`);
  await ctx.msg(`alias ${name} set: svc ${name} runs ${expansion.startsWith('!') ? `sh -c '${expansion.slice(1)}'` : `svc ${expansion}`}`);
}

export async function runDelete(ctx: Ctx, { name }: AliasNameOptions): Promise<void> {
  await updateConfig(
    ctx.settings.configFile,
    (data) => {
      if (!data.aliases || !Object.hasOwn(data.aliases, name)) throw new UsageError(`no alias named "${name}" (svc alias list lists them)`);
      delete data.aliases[name];
    },
    ctx.io.signal,
  );
  await ctx.msg(`alias ${name} deleted`);
}

export async function runList(ctx: Ctx): Promise<void> {
  const aliases = ctx.settings.config.aliases ?? {};
  const rows = Object.keys(aliases)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => ({ name, expansion: aliases[name] }));
  await ctx.out.list(rows, [
    { header: 'NAME', get: (r) => r.name },
    { header: 'EXPANSION', get: (r) => r.expansion },
  ]);
}

export default function build(group: Command, kit: Kit): void {
  const set = group.command('set');
  set
    .argument('<name>', 'the new word: not a command nor an alias already')
    .argument('<expansion>', 'svc\'s words ($1… take arguments, the rest are appended), or !LINE run by sh -c with the arguments as "$@"')
    .description('Make svc NAME run the expansion (aliases are kept for every profile)');
  addFlags(set, ALIAS_SET_FLAGS);
  examples(set, [
    "svc alias set mine 'sessions list --agent reviewer'",
    "svc alias set say 'run --agent $1'",
    "svc alias set mine 'sessions list --agent triager' --clobber",
    `svc alias set failed '!svc sessions list --status failed -q | xargs -r svc sessions get "$@"'`,
  ]);
  set.action(kit.verb(parseAliasSet, (ctx, o) => runSet(ctx, o, kit.tree.isCommand)));

  const list = group.command('list').description('List the aliases');
  examples(list, ['svc alias list', 'svc alias list -o json']);
  printsNoIds(list, 'aliases have names, not IDs (try --jq)');
  list.action(kit.verb(noOptions, (ctx) => runList(ctx)));

  const del = group.command('delete').argument('<name>', 'the alias').description('Delete an alias');
  examples(del, ['svc alias delete mine']);
  del.action(kit.verb(parseAliasName, runDelete));
}
