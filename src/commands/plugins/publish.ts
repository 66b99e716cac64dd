import type { Command } from 'commander';
import { plugins, type Validation } from '../../api/plugins';
import type { Ctx } from '../../context';
import { ExitCodeError } from '../../errors';
import { LIMITS } from '../../wire/limits';
import { examples, type Kit, type Opts } from '../../cli/action';
import { addIdempotencyOption } from '../../cli/verbs/resource';
import { upload, uploadFile } from '../../cli/verbs/transfer';

/** Publishes a `.zip` as a new plugin, or with `--plugin` as a new version of that plugin. */
export async function runPublish(ctx: Ctx, file: string, opts: Opts): Promise<void> {
  const src = uploadFile(ctx, file, LIMITS.pluginPackage, 'plugin package');
  const result = await upload(
    ctx,
    opts,
    src,
    {},
    (c, body, key) => (opts.plugin === undefined ? plugins.publish(c, body, key) : plugins.publishVersion(c, opts.plugin, body, key)),
    'svc plugins list',
  );
  await ctx.out.item(result);
}

export function addPublish(group: Command, kit: Kit): Command {
  const cmd = group
    .command('publish')
    .argument('<file>', 'plugin package, a .zip of at most 64 MiB')
    .description('Publish a plugin package (a new plugin, or a new version with --plugin)')
    .option('--plugin <id>', 'publish a new version of this existing plugin');
  addIdempotencyOption(cmd);
  examples(cmd, ['svc plugins publish my-plugin.zip', 'svc plugins publish my-plugin-1.1.0.zip --plugin PLUGIN_ID']);
  return cmd.action(kit.action((ctx, [file], opts) => runPublish(ctx, file, opts)));
}

const messages = (v: Validation): string => (v.errors ?? []).map((e) => (typeof e === 'string' ? e : (e?.message ?? JSON.stringify(e)))).join('; ');

/** Validates without publishing; prints the result and exits 3 when `ok` is false. */
export async function runValidate(ctx: Ctx, file: string, opts: Opts): Promise<void> {
  const src = uploadFile(ctx, file, LIMITS.pluginPackage, 'plugin package');
  const result = await upload(ctx, opts, src, {}, (c, body, key) => plugins.validate(c, body, key));
  await ctx.out.item(result);
  if (result?.ok === false) throw new ExitCodeError(3, `${src.filename} cannot be published${messages(result) ? `: ${messages(result)}` : ''}`);
}

export function addValidate(group: Command, kit: Kit): Command {
  const cmd = group
    .command('validate')
    .argument('<file>', 'plugin package, a .zip of at most 64 MiB')
    .description('Check a plugin package without publishing it (exit 3 when it cannot be published)');
  addIdempotencyOption(cmd);
  examples(cmd, ['svc plugins validate my-plugin.zip', 'svc plugins validate my-plugin.zip --jq .errors']);
  return cmd.action(kit.action((ctx, [file], opts) => runValidate(ctx, file, opts)));
}
