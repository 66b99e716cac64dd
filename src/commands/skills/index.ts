import type { Command } from 'commander';
import { skills } from '../../api/skills';
import type { Kit } from '../../cli/action';
import { addArchive, addChildList, addDelete, addGet, addList, resourceSpec, type ResourceSpec } from '../../cli/verbs/resource';
import { listInParent } from '../../cli/verbs/parent';
import { PACKAGE_VERSION_COLUMNS, SKILL_COLUMNS } from './columns';
import { addCreate, addCreateVersion } from './create';
import { addDownload } from './download';

export const SKILLS: ResourceSpec = resourceSpec(skills, SKILL_COLUMNS);

export default function build(group: Command, kit: Kit): void {
  addList(group, kit, SKILLS, {
    examples: ['svc skills list', 'svc skills list --category dev_tools -o ndjson'],
  });
  addGet(group, kit, SKILLS, { examples: ['svc skills get SKILL_ID', 'svc skills get SKILL_ID --jq .latest_version'] });
  addCreate(group, kit);
  addCreateVersion(group, kit);
  addChildList(group, kit, {
    name: 'versions',
    parent: { arg: '<skill>', description: 'skill ID or name' },
    description: 'List the versions of a skill, newest first',
    columns: PACKAGE_VERSION_COLUMNS,
    examples: ['svc skills versions SKILL_ID', 'svc skills versions SKILL_ID -o json --jq ".[].version"'],
    items: async (ctx, ref, lo) => {
      const c = await ctx.api();
      return listInParent(c, skills, ref, (id) => skills.versions(c, id, lo));
    },
  });
  addDownload(group, kit);
  addArchive(group, kit, SKILLS, { examples: ['svc skills archive SKILL_ID'] });
  addDelete(group, kit, SKILLS, { examples: ['svc skills delete SKILL_ID'] });
}
