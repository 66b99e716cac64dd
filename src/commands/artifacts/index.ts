import type { Command } from 'commander';
import { artifacts } from '../../api/artifacts';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { addFlags } from '../../cli/flags';
import { addChildList, addGet, addList, resourceSpec, type ResourceSpec } from '../../cli/verbs/resource';
import { addOutputFileOption, download, parseVersionedDownload, VERSION_FLAGS, type VersionedDownloadOptions } from '../../cli/verbs/transfer';
import { ARTIFACT_COLUMNS, ARTIFACT_VERSION_COLUMNS } from './columns';

export const ARTIFACTS: ResourceSpec = resourceSpec(artifacts, ARTIFACT_COLUMNS);

// Without --version the service serves the latest: no extra read.
export const runArtifactDownload = (ctx: Ctx, o: VersionedDownloadOptions): Promise<void> =>
  download(ctx, o, o.id, (c) => artifacts.content(c, o.id, o.version));

export default function build(group: Command, kit: Kit): void {
  addList(group, kit, ARTIFACTS, {
    examples: ['svc artifacts list --session SESSION_ID', 'svc artifacts list --all -o ndjson'],
  });
  addGet(group, kit, ARTIFACTS, { examples: ['svc artifacts get ARTIFACT_ID', 'svc artifacts get ARTIFACT_ID --jq .latest_version'] });
  addChildList(group, kit, {
    name: 'versions',
    parent: { arg: '<artifact>', description: 'artifact ID' },
    description: 'List the versions of an artifact, newest first',
    columns: ARTIFACT_VERSION_COLUMNS,
    examples: ['svc artifacts versions ARTIFACT_ID'],
    items: async (ctx, id, lo) => artifacts.versions(await ctx.api(), id, lo),
  });
  const dl = group
    .command('download')
    .argument('<artifact>', 'artifact ID')
    .description('Download an artifact (the latest version unless --version; to stdout when piped)');
  addOutputFileOption(addFlags(dl, VERSION_FLAGS));
  examples(dl, ['svc artifacts download ARTIFACT_ID -O report.md', 'svc artifacts download ARTIFACT_ID --version 1 > v1.bin']);
  dl.action(kit.verb(parseVersionedDownload, runArtifactDownload));
}
