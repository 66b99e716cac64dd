import type { Command } from 'commander';
import type { ApiClient } from '../../api/client';
import { skills } from '../../api/skills';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { addFlags } from '../../cli/flags';
import { addOutputFileOption, download, parseVersionedDownload, VERSION_FLAGS, type VersionedDownloadOptions } from '../../cli/verbs/transfer';
import { inParent } from '../../cli/verbs/parent';

/** The newest version: the skill's `latest_version`, else the head of its versions list. */
async function latestVersion(c: ApiClient, id: string): Promise<string> {
  // Assumption (emulator; the skill record is not shown): skills carry `latest_version` as plugin list items do.
  const skill = await skills.get(c, id);
  if (skill.latest_version !== undefined && skill.latest_version !== null) return String(skill.latest_version);
  for await (const v of skills.versions(c, id, { pageSize: 1, limit: 1 })) return String(v.version);
  return '1';
}

export function runDownload(ctx: Ctx, o: VersionedDownloadOptions): Promise<void> {
  return download(ctx, o, `${o.id}.zip`, (c) => inParent(c, skills, o.id, async (id) => skills.content(c, id, o.version ?? (await latestVersion(c, id)))));
}

export function addDownload(group: Command, kit: Kit): Command {
  const cmd = group.command('download').argument('<skill>', 'skill ID or name').description('Download a skill package (the latest version unless --version)');
  addOutputFileOption(addFlags(cmd, VERSION_FLAGS));
  examples(cmd, ['svc skills download SKILL_ID -O skill.zip', 'svc skills download SKILL_ID --version 2 -O ./packages/']);
  return cmd.action(kit.verb(parseVersionedDownload, runDownload));
}
