import type { Command } from 'commander';
import { plugins } from '../../api/plugins';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable } from '../../cli/flags';
import { addOutputFileOption, download, parseVersionedDownload, type VersionedDownloadOptions } from '../../cli/verbs/transfer';

/** `svc plugins download`'s flags besides `-O` (addOutputFileOption's). */
export const PLUGIN_DOWNLOAD_FLAGS = flagTable({ version: { flags: '--version <version>', description: 'the version to download, e.g. 1.2.0' } });

/** Without `--version`, the plugin's `latest_version`. */
export function runDownload(ctx: Ctx, o: VersionedDownloadOptions): Promise<void> {
  return download(ctx, o, `${o.id}.zip`, async (c) => plugins.content(c, o.id, o.version ?? String((await plugins.get(c, o.id)).latest_version)));
}

export function addDownload(group: Command, kit: Kit): Command {
  const cmd = group.command('download').argument('<plugin>', 'plugin ID').description('Download a plugin package (.zip; the latest version unless --version)');
  addOutputFileOption(addFlags(cmd, PLUGIN_DOWNLOAD_FLAGS));
  examples(cmd, ['svc plugins download PLUGIN_ID -O plugin.zip', 'svc plugins download PLUGIN_ID --version 1.0.0 -O ./packages/']);
  return cmd.action(kit.verb(parseVersionedDownload, runDownload));
}
