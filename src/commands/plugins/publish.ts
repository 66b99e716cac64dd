import type { Command } from 'commander';
import { plugins, type Validation } from '../../api/plugins';
import type { Ctx } from '../../runtime/context';
import { ExitCodeError } from '../../runtime/errors';
import { LIMITS } from '../../wire/limits';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { idempotencyFlags } from '../../cli/verbs/idempotency';
import { upload, uploadFile } from '../../cli/verbs/transfer';

/** `svc plugins publish FILE [--plugin ID]` and `svc plugins validate FILE`, each with `--idempotency-key`. */
export interface PackageOptions {
  file: string;
  plugin?: string;
  idempotencyKey?: string;
}

/** `svc plugins validate`'s flags. */
export const PLUGIN_VALIDATE_FLAGS = flagTable({ ...idempotencyFlags() });
/** `svc plugins publish`'s flags: `--plugin` and validate's. */
export const PLUGIN_PUBLISH_FLAGS = flagTable({
  plugin: { flags: '--plugin <id>', description: 'publish a new version of this existing plugin' },
  ...PLUGIN_VALIDATE_FLAGS,
});

/** Both verbs' parse step: validate has no `--plugin`, so it reads as not given. */
export const parsePackage = ([file]: string[], flags: FlagsOf<typeof PLUGIN_PUBLISH_FLAGS>): PackageOptions => ({
  file,
  plugin: flags.plugin,
  idempotencyKey: flags.idempotencyKey,
});

/** Publishes a `.zip` as a new plugin, or with `--plugin` as a new version of that plugin. */
export async function runPublish(ctx: Ctx, o: PackageOptions): Promise<void> {
  const src = uploadFile(ctx, o.file, LIMITS.pluginPackage, 'plugin package');
  const plugin = o.plugin;
  const result = await upload(
    ctx,
    o,
    src,
    {},
    (c, body, key) => (plugin === undefined ? plugins.publish(c, body, key) : plugins.publishVersion(c, plugin, body, key)),
    'svc plugins list',
  );
  await ctx.out.item(result);
}

export function addPublish(group: Command, kit: Kit): Command {
  const cmd = group
    .command('publish')
    .argument('<file>', 'plugin package, a .zip of at most 64 MiB')
    .description('Publish a plugin package (a new plugin, or a new version with --plugin)');
  addFlags(cmd, PLUGIN_PUBLISH_FLAGS);
  examples(cmd, ['svc plugins publish my-plugin.zip', 'svc plugins publish my-plugin-1.1.0.zip --plugin PLUGIN_ID']);
  return cmd.action(kit.verb(parsePackage, runPublish));
}

const messages = (v: Validation): string => (v.errors ?? []).map((e) => (typeof e === 'string' ? e : (e?.message ?? JSON.stringify(e)))).join('; ');

/** Validates without publishing; prints the result and exits 3 when `ok` is false. */
export async function runValidate(ctx: Ctx, o: PackageOptions): Promise<void> {
  const src = uploadFile(ctx, o.file, LIMITS.pluginPackage, 'plugin package');
  const result = await upload(ctx, o, src, {}, (c, body, key) => plugins.validate(c, body, key));
  await ctx.out.item(result);
  if (result?.ok === false) throw new ExitCodeError(3, `${src.filename} cannot be published${messages(result) ? `: ${messages(result)}` : ''}`);
}

export function addValidate(group: Command, kit: Kit): Command {
  const cmd = group
    .command('validate')
    .argument('<file>', 'plugin package, a .zip of at most 64 MiB')
    .description('Check a plugin package without publishing it (exit 3 when it cannot be published)');
  addFlags(cmd, PLUGIN_VALIDATE_FLAGS);
  examples(cmd, ['svc plugins validate my-plugin.zip', 'svc plugins validate my-plugin.zip --jq .errors']);
  return cmd.action(kit.verb(parsePackage, runValidate));
}
