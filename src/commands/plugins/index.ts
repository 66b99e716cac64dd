import type { Command } from 'commander';
import { plugins } from '../../api/plugins';
import type { Kit } from '../../cli/action';
import { addArchive, addChildList, addGet, resourceSpec, type ResourceSpec } from '../../cli/verbs/resource';
import { PACKAGE_VERSION_COLUMNS } from '../skills/columns';
import { PLUGIN_COLUMNS } from './columns';
import { addDownload } from './download';
import { addPluginList } from './list';
import { addPublish, addValidate } from './publish';

export const PLUGINS: ResourceSpec = resourceSpec(plugins, PLUGIN_COLUMNS);

export default function build(group: Command, kit: Kit): void {
  addPluginList(group, kit);
  addGet(group, kit, PLUGINS, { examples: ['svc plugins get PLUGIN_ID', 'svc plugins get PLUGIN_ID --jq .latest_version'] });
  addPublish(group, kit);
  addValidate(group, kit);
  addChildList(group, kit, {
    name: 'versions',
    parent: { arg: '<plugin>', description: 'plugin ID' },
    description: 'List the versions of a plugin, newest first by semantic version',
    columns: PACKAGE_VERSION_COLUMNS,
    examples: ['svc plugins versions PLUGIN_ID', 'svc plugins versions PLUGIN_ID -o json --jq ".[].version"'],
    items: async (ctx, id, lo) => plugins.versions(await ctx.api(), id, lo),
  });
  addDownload(group, kit);
  // Official plugins are read-only: the service refuses (R-PLUG-1).
  addArchive(group, kit, PLUGINS, { examples: ['svc plugins archive PLUGIN_ID'] });
}
