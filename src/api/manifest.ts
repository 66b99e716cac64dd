/**
 * The service's top-level resources, one entry each: what the API layer, the command groups, completion and
 * configuration as code know of a resource. No imports: every command's start-up may read it.
 */
export interface ResourceEntry {
  /** The command group (`svc agents …`), also the completion source key. */
  group: string;
  /** One of them, in messages (`agent`, `memory store`). */
  noun: string;
  /** The collection's path; an item is `${path}/{id}`. */
  path: string;
  /** The `kind` of a configuration document (`svc apply`), where the resource has one. */
  kind?: string;
  /** Has a `name` an ID may be looked up by. */
  named: boolean;
  /** Help's one-line description of the group. */
  description: string;
  /** The list answers newest first already (completion shows the newest first either way). */
  newestFirst?: boolean;
  /** The member completion shows beside an ID, what a person recognises one by (default: `name`). */
  label?: string;
  /** Its create and update bodies carry `metadata` (API-NOTES): `--metadata KEY=VALUE` sets it. */
  metadata?: boolean;
}

export const RESOURCES = {
  agents: { group: 'agents', noun: 'agent', path: '/v1/agents', kind: 'Agent', named: true, metadata: true, description: 'Manage agents and their versions' },
  sessions: {
    group: 'sessions',
    noun: 'session',
    path: '/v1/sessions',
    named: false,
    metadata: true,
    description: 'Manage sessions: send, interrupt, continue, confirm, tail, wait, export',
    label: 'title',
  },
  environments: {
    group: 'environments',
    noun: 'environment',
    path: '/v1/environments',
    kind: 'Environment',
    named: true,
    metadata: true,
    description: 'Manage environments (cloud or self-hosted)',
  },
  triggers: {
    group: 'triggers',
    noun: 'trigger',
    path: '/v1/triggers',
    kind: 'Trigger',
    named: true,
    metadata: true,
    description: 'Manage triggers, their runs, pause and resume',
  },
  vaults: {
    group: 'vaults',
    noun: 'vault',
    path: '/v1/vaults',
    kind: 'Vault',
    named: true,
    metadata: true,
    description: 'Manage vaults and their credentials',
  },
  memoryStores: {
    group: 'memory-stores',
    noun: 'memory store',
    path: '/v1/memory-stores',
    kind: 'MemoryStore',
    named: true,
    metadata: true,
    description: 'Manage memory stores',
    newestFirst: true,
  },
  skills: { group: 'skills', noun: 'skill', path: '/v1/skills', kind: 'Skill', named: true, description: 'Manage skills and their versions' },
  plugins: { group: 'plugins', noun: 'plugin', path: '/v1/plugins', named: false, description: 'Find, publish, validate and download plugins' },
  dreams: { group: 'dreams', noun: 'dream', path: '/v1/dreams', named: false, description: 'Manage dreams' },
  artifacts: { group: 'artifacts', noun: 'artifact', path: '/v1/artifacts', named: false, description: 'List, show and download artifacts' },
  files: { group: 'files', noun: 'file', path: '/v1/files', named: false, description: 'Upload, list, show, download and delete files', label: 'filename' },
} as const satisfies Record<string, ResourceEntry>;

export type ResourceKey = keyof typeof RESOURCES;

export const RESOURCE_LIST: readonly ResourceEntry[] = Object.values(RESOURCES);

/** The entry of a command group, if the group is a resource. */
export function resourceOf(group: string): ResourceEntry | undefined {
  return RESOURCE_LIST.find((r) => r.group === group);
}

/** A configuration document's `kind` (`svc apply`): the kinds of the entries that have one, in the manifest's order. */
export type Kind = Extract<(typeof RESOURCES)[ResourceKey], { kind: string }>['kind'];

/** The entries that configuration documents can hold, by kind. */
export const KINDED: readonly (ResourceEntry & { kind: Kind })[] = RESOURCE_LIST.filter((r): r is ResourceEntry & { kind: Kind } => r.kind !== undefined);
