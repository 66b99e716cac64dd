import type { Command } from 'commander';
import { plugins } from '../../api/plugins';
import type { Ctx } from '../../context';
import { examples, type Kit, type Opts } from '../../cli/action';
import { addOutputFileOption, download } from '../../cli/verbs/transfer';

/** Without `--version`, the plugin's `latest_version`. */
export function runDownload(ctx: Ctx, id: string, opts: Opts): Promise<void> {
  return download(ctx, opts, `${id}.zip`, async (c) => plugins.content(c, id, opts.version ?? String((await plugins.get(c, id)).latest_version)));
}

export function addDownload(group: Command, kit: Kit): Command {
  const cmd = group
    .command('download')
    .argument('<plugin>', 'plugin ID')
    .description('Download a plugin package (.zip; the latest version unless --version)')
    .option('--version <version>', 'the version to download, e.g. 1.2.0');
  addOutputFileOption(cmd);
  examples(cmd, ['svc plugins download PLUGIN_ID -O plugin.zip', 'svc plugins download PLUGIN_ID --version 1.0.0 -O ./packages/']);
  return cmd.action(kit.action((ctx, [id], opts) => runDownload(ctx, id, opts)));
}
