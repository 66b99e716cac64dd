import { agents } from '../../api/resources';
import { checkReferences } from '../../api/checks/references';
import type { KindSpec } from '../types';
import { KIND_NAMES } from '../names';

export const agent: KindSpec = {
  ...KIND_NAMES.Agent,
  api: agents,
  fields: ['name', 'model', 'description', 'system', 'tools', 'mcp_servers', 'skills', 'plugins', 'roster', 'metadata'],
  readOnly: ['version'],
  required: ['name', 'model'],
  writeOnly: ['mcp_servers.*.headers'],
  refs: [
    // Assumption: a skill named without a version follows its latest version, so a skill that apply
    // republishes reaches the agent without another agent write.
    { at: 'skills.*', from: 'skill', to: 'skill_id', kind: 'Skill', defaults: { version: 'latest' } },
    // Assumption (docs/service.md leaves roster entries unshaped): an entry names its sub-agent as `agent_id`.
    { at: 'roster.*', from: 'agent', to: 'agent_id', kind: 'Agent' },
  ],
  check: checkReferences,
};
