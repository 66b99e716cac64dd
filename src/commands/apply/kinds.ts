import { environments } from '../../api/environments';
import { memoryStores } from '../../api/memory';
import { agents, type Crud, type Obj } from '../../api/resources';
import { skills } from '../../api/skills';
import { triggers } from '../../api/triggers';
import { vaults } from '../../api/vaults';
import type { WriteOnly } from '../apply-diff';
import { checkEnvironment } from '../environments/config';
import { checkReferences } from '../../cli/references';
import { checkCredentials } from './credentials';
import { applyPatches, checkTrigger } from '../triggers/body';
import { KIND_NAMES, KINDS, type Kind } from './names';

export type Body = Record<string, any>;

export { KIND_NAMES, KINDS, type Kind } from './names';

/**
 * A reference by name: at each object matched by `at` (`''` the document itself, `skills.*` each element),
 * member `from` names a resource of `kind`; apply replaces it with `to`, that resource's ID, plus `defaults`.
 */
export interface RefSpec {
  at: string;
  from: string;
  to: string;
  kind: Kind;
  defaults?: Body;
}

export interface KindSpec {
  kind: Kind;
  noun: string;
  group: string;
  api: Crud;
  /** Members the create and update endpoints take (API-NOTES). */
  fields: readonly string[];
  /** Members only apply reads: references by name, the credentials of a vault, the folder of a skill. */
  applyFields?: readonly string[];
  /** Members the service manages besides `id` and the timestamps: dropped, so `get -o yaml` output applies. */
  readOnly?: readonly string[];
  /** Members a create needs (after references are resolved). */
  required?: readonly string[];
  /** Members the service never returns: compared never, printed masked. */
  writeOnly?: WriteOnly;
  refs?: RefSpec[];
  /** Client-side checks of a document (enums, reference rules), before any request. */
  check?: (body: Body) => void;
  /** The PATCH bodies of one update, in order (a trigger switches session_mode first). */
  patches?: (live: Obj, patch: Body) => Body[];
}

/** `agents`, `triggers`, … : the resource's own fields. */
export const KIND_SPECS: Record<Kind, KindSpec> = {
  Agent: {
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
      // Assumption (API-NOTES leaves roster entries unshaped): an entry names its sub-agent as `agent_id`.
      { at: 'roster.*', from: 'agent', to: 'agent_id', kind: 'Agent' },
    ],
    check: checkReferences,
  },
  Environment: {
    ...KIND_NAMES.Environment,
    api: environments,
    fields: ['name', 'description', 'config', 'metadata'],
    required: ['name'],
    check: checkEnvironment,
  },
  Trigger: {
    ...KIND_NAMES.Trigger,
    api: triggers,
    fields: ['name', 'agent_id', 'agent_version', 'environment_id', 'resources', 'session_mode', 'schedule', 'initial_events', 'metadata'],
    applyFields: ['agent', 'environment'],
    readOnly: ['status', 'paused_reason', 'session_id'],
    required: ['name', 'agent_id', 'session_mode', 'initial_events'],
    refs: [
      { at: '', from: 'agent', to: 'agent_id', kind: 'Agent' },
      { at: '', from: 'environment', to: 'environment_id', kind: 'Environment' },
    ],
    check: checkTrigger,
    patches: applyPatches,
  },
  Vault: {
    ...KIND_NAMES.Vault,
    api: vaults,
    fields: ['name', 'description', 'metadata'],
    applyFields: ['credentials'],
    required: ['name'],
    refs: [{ at: 'credentials.*', from: 'egress_environment', to: 'egress_environment_id', kind: 'Environment' }],
    check: checkCredentials,
  },
  MemoryStore: {
    ...KIND_NAMES.MemoryStore,
    api: memoryStores,
    fields: ['name', 'description', 'metadata'],
    required: ['name'],
  },
  Skill: {
    ...KIND_NAMES.Skill,
    api: skills,
    // Skills have no update: `description` is sent with the first upload only, and content changes become versions.
    fields: ['name', 'description', 'metadata'],
    applyFields: ['path'],
    readOnly: ['latest_version', 'categories'],
    required: ['name', 'path'],
  },
};

export const isKind = (k: unknown): k is Kind => typeof k === 'string' && (KINDS as readonly string[]).includes(k);
