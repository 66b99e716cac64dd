import type { Command } from 'commander';
import type { ApiClient } from '../../api/client';
import { skills } from '../../api/skills';
import type { Ctx } from '../../context';
import { examples, type Kit, type Opts } from '../../cli/action';
import { addOutputFileOption, download } from '../../cli/verbs/transfer';

/** The newest version: the skill's `latest_version`, else the head of its versions list. */
async function latestVersion(c: ApiClient, id: string): Promise<string> {
  // Assumption (emulator; the skill record is not shown): skills carry `latest_version` as plugin list items do.
  const skill = await skills.get(c, id);
  if (skill.latest_version !== undefined && skill.latest_version !== null) return String(skill.latest_version);
  for await (const v of skills.versions(c, id, { pageSize: 1, limit: 1 })) return String(v.version);
  return '1';
}

export function runDownload(ctx: Ctx, id: string, opts: Opts): Promise<void> {
  return download(ctx, opts, `${id}.zip`, async (c) => skills.content(c, id, opts.version ?? (await latestVersion(c, id))));
}

export function addDownload(group: Command, kit: Kit): Command {
  const cmd = group
    .command('download')
    .argument('<skill>', 'skill ID')
    .description('Download a skill package (the latest version unless --version)')
    .option('--version <v>', 'the version to download');
  addOutputFileOption(cmd);
  examples(cmd, ['svc skills download SKILL_ID -O skill.zip', 'svc skills download SKILL_ID --version 2 -O ./packages/']);
  return cmd.action(kit.action((ctx, [id], opts) => runDownload(ctx, id, opts)));
}
