import type { Command } from 'commander';
import { agents } from '../../api/resources';
import { addApply } from '../apply/verb';
import type { Kit } from '../../cli/action';
import { checkReferences } from '../../api/checks/references';
import {
  pickSource,
  addArchive,
  addCreate,
  addDelete,
  addGet,
  addChildList,
  addUpdate,
  type BodyFlag,
  resourceSpec,
  type ResourceSpec,
} from '../../cli/verbs/resource';
import { addSelectableList } from '../../cli/verbs/selector-list';
import { listInParent } from '../../cli/verbs/parent';
import { AGENT_COLUMNS } from './columns';

export const AGENTS: ResourceSpec = resourceSpec(agents, AGENT_COLUMNS);

const FLAGS: BodyFlag[] = [
  { flags: '--name <name>', description: 'agent name', field: 'name' },
  { flags: '--model <model>', description: 'model ID', field: 'model' },
  { flags: '--description <text>', description: 'description', field: 'description' },
  { flags: '--system <text>', description: 'system prompt', field: 'system' },
];

export default function build(group: Command, kit: Kit): void {
  addSelectableList(group, kit, AGENTS, {
    examples: [
      'svc agents list',
      'svc agents list --created-after 2026-01-01T00:00:00Z --all -o ndjson',
      "svc agents list -l 'team=infra' --older-than 30d -q",
      'svc agents list -w',
    ],
  });
  addGet(group, kit, AGENTS, { examples: ['svc agents get AGENT_ID', 'svc agents get AGENT_ID --version 2'], lead: ['name', 'model'], versioned: true });
  addCreate(group, kit, AGENTS, {
    flags: FLAGS,
    required: ['name', 'model'],
    check: checkReferences,
    examples: ['svc agents create --data @agent.yaml', 'svc agents create --name reviewer --model claude-sonnet-4-5'],
  });
  addUpdate(group, kit, AGENTS, { flags: FLAGS, check: checkReferences, examples: ['svc agents update AGENT_ID --system "Be brief."'] });
  addDelete(group, kit, AGENTS, { examples: ['svc agents delete AGENT_ID', "svc agents delete -l 'scratch' --older-than 7d --yes"] });
  addArchive(group, kit, AGENTS, { examples: ['svc agents archive AGENT_ID', "svc agents archive -l 'team=old' --dry-run"] });
  addApply(group, kit, 'Agent', { examples: ['svc agents apply agent.yaml --dry-run', 'svc agents apply agent.yaml'] });
  addChildList(group, kit, {
    name: 'versions',
    parent: { arg: '<id>', description: 'agent ID or name', pick: pickSource(AGENTS) },
    description: 'List the versions of an agent, newest first',
    columns: AGENT_COLUMNS,
    examples: ['svc agents versions AGENT_ID', 'svc agents versions AGENT_ID -o json --jq ".[].version"'],
    items: async (ctx, ref, lo) => {
      const c = await ctx.api();
      return listInParent(c, agents, ref, (id) => agents.versions(c, id, lo));
    },
  });
}
