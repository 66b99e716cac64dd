/**
 * The service's top-level resources, one row each: every fact about a resource that more than one place needs. The
 * API layer, the group registry and help (cli/groups.ts), the generic verbs, bulk verbs and selectors, completion,
 * apply and its prune, and the not-found hint read it. No imports: every command's start-up reads it.
 */

/** The verbs cli/verbs/ builds for any resource from its row alone. */
export type GenericVerb = 'list' | 'get' | 'create' | 'update' | 'delete' | 'archive';

/** A list filter the service takes: `flags` without a `<value>` sends `true`. */
export interface FilterEntry {
  flags: string;
  description: string;
  query: string;
  choices?: readonly string[];
}

interface Base {
  /** The command group (`svc agents …`), also the completion source key and the not-found hint's `svc GROUP list`. */
  group: string;
  /** One of them, in messages (`agent`, `memory store`); with `-` for spaces, also an argument name completion knows. */
  noun: string;
  /** The collection's path; an item is `${path}/{id}`. */
  path: string;
  /** Has a `name` an ID may be looked up by (and a hint that says so). */
  named: boolean;
  /** Help's one-line description of the group. */
  description: string;
  /** The generic verbs it has (a command folder may add more, or build one itself where it must differ). */
  verbs: readonly GenericVerb[];
  /** The list's own filters, sent to the service. */
  filters?: readonly FilterEntry[];
  /** The list also takes the `--created-after` family (cli/verbs/list.ts TIME_FILTERS). */
  timeFilters?: boolean;
  /** List, archive and delete take `-l` and the time selectors, and list takes `-w` (docs/behaviour.md "Selecting"). */
  selectors?: boolean;
  /** The list answers newest first already (completion shows the newest first either way). */
  newestFirst?: boolean;
  /** The member completion shows beside an ID, what a person recognises one by (default: `name`). */
  label?: string;
  /** Other argument names that take one of them (`<store>`), for completion. */
  argNames?: readonly string[];
  /** Has versions at `${path}/{id}/versions`: `--version` and `versions` complete from them. */
  versions?: boolean;
  /** Its create and update bodies carry `metadata` (docs/service.md): `--metadata KEY=VALUE` sets it. */
  metadata?: boolean;
}

/** A resource; one that configuration documents hold (`svc apply`) has a kind and its place in `--prune`'s order. */
export type ResourceEntry =
  | (Base & { kind?: undefined; prune?: undefined })
  | (Base & {
      /** The `kind` of a configuration document. */
      kind: string;
      /** Its place in `apply --prune`'s archives, lowest first: what names others goes before what it names. */
      prune: number;
    });

const ALL: readonly GenericVerb[] = ['list', 'get', 'create', 'update', 'delete', 'archive'];

export const RESOURCES = {
  agents: {
    group: 'agents',
    noun: 'agent',
    path: '/v1/agents',
    kind: 'Agent',
    prune: 2,
    named: true,
    metadata: true,
    description: 'Manage agents and their versions',
    verbs: ALL,
    selectors: true,
    filters: [{ flags: '--official-only', description: 'only official agents', query: 'official_only' }],
    timeFilters: true,
    versions: true,
  },
  sessions: {
    group: 'sessions',
    noun: 'session',
    path: '/v1/sessions',
    named: false,
    metadata: true,
    description: 'Manage sessions: send, interrupt, continue, confirm, tail, wait, export',
    // list, delete and archive are the session's own (a derived state, session selectors): commands/sessions/.
    verbs: ['get', 'create', 'update'],
    label: 'title',
  },
  environments: {
    group: 'environments',
    noun: 'environment',
    path: '/v1/environments',
    kind: 'Environment',
    prune: 5,
    named: true,
    metadata: true,
    description: 'Manage environments (cloud or self-hosted)',
    verbs: ALL,
    selectors: true,
    filters: [{ flags: '--official-only', description: 'only platform-provided environments', query: 'official_only' }],
    argNames: ['env', 'egress-environment'],
  },
  triggers: {
    group: 'triggers',
    noun: 'trigger',
    path: '/v1/triggers',
    kind: 'Trigger',
    prune: 1,
    named: true,
    metadata: true,
    description: 'Manage triggers, their runs, pause and resume',
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    selectors: true,
    filters: [{ flags: '--agent <id>', description: 'only triggers of this agent', query: 'agent_id' }],
  },
  vaults: {
    group: 'vaults',
    noun: 'vault',
    path: '/v1/vaults',
    kind: 'Vault',
    prune: 3,
    named: true,
    metadata: true,
    description: 'Manage vaults and their credentials',
    verbs: ALL,
  },
  memoryStores: {
    group: 'memory-stores',
    noun: 'memory store',
    path: '/v1/memory-stores',
    kind: 'MemoryStore',
    prune: 4,
    named: true,
    metadata: true,
    description: 'Manage memory stores',
    verbs: ALL,
    selectors: true,
    // Assumption (docs/service.md): archived rows are listed only with include_archived=true.
    filters: [{ flags: '--include-archived', description: 'include archived stores', query: 'include_archived' }],
    newestFirst: true,
    argNames: ['store'],
  },
  skills: {
    group: 'skills',
    noun: 'skill',
    path: '/v1/skills',
    kind: 'Skill',
    prune: 6,
    named: true,
    description: 'Manage skills and their versions',
    // create is the skill's own (a package upload): commands/skills/create.ts.
    verbs: ['list', 'get', 'delete', 'archive'],
    filters: [
      { flags: '--category <category>', description: 'only skills in this category', query: 'category' },
      { flags: '--include-archived', description: 'show archived skills too', query: 'include_archived' },
    ],
    versions: true,
  },
  plugins: {
    group: 'plugins',
    noun: 'plugin',
    path: '/v1/plugins',
    named: false,
    description: 'Find, publish, validate and download plugins',
    // list is the plugin's own (checked search filters): commands/plugins/list.ts.
    verbs: ['get', 'archive'],
    versions: true,
  },
  dreams: {
    group: 'dreams',
    noun: 'dream',
    path: '/v1/dreams',
    named: false,
    description: 'Manage dreams',
    verbs: ['list', 'get', 'create'],
    // Assumption (emulator): list dreams filters by `memory_store_id`; docs/service.md names no list filter.
    filters: [{ flags: '--memory-store <id>', description: 'only dreams of this memory store', query: 'memory_store_id' }],
  },
  artifacts: {
    group: 'artifacts',
    noun: 'artifact',
    path: '/v1/artifacts',
    named: false,
    description: 'List, show and download artifacts',
    verbs: ['list', 'get'],
    filters: [{ flags: '--session <id>', description: 'only artifacts of this session', query: 'session_id' }],
    versions: true,
  },
  files: {
    group: 'files',
    noun: 'file',
    path: '/v1/files',
    named: false,
    description: 'Upload, list, show, download and delete files',
    // list, get and delete are the file's own (the compatibility header): commands/files/index.ts.
    verbs: [],
    label: 'filename',
  },
} as const satisfies Record<string, ResourceEntry>;

export type ResourceKey = keyof typeof RESOURCES;

export const RESOURCE_LIST: readonly ResourceEntry[] = Object.values(RESOURCES);

/** The entry of a command group, if the group is a resource (of `rows`, the manifest unless a test gives a copy). */
export function resourceOf(group: string, rows: readonly ResourceEntry[] = RESOURCE_LIST): ResourceEntry | undefined {
  return rows.find((r) => r.group === group);
}

/** A configuration document's `kind` (`svc apply`): the kinds of the entries that have one, in the manifest's order. */
export type Kind = Extract<(typeof RESOURCES)[ResourceKey], { kind: string }>['kind'];

export type KindedEntry = Extract<ResourceEntry, { kind: string }> & { kind: Kind };

/** The entries that configuration documents can hold, by kind. */
export const KINDED: readonly KindedEntry[] = RESOURCE_LIST.filter((r): r is KindedEntry => r.kind !== undefined);

/** The kinds in `apply --prune`'s order: what names others is archived before what it names. */
export function pruneOrder<K extends string = Kind>(rows: readonly ResourceEntry[] = RESOURCE_LIST): K[] {
  return rows
    .filter((r): r is Extract<ResourceEntry, { kind: string }> => r.kind !== undefined)
    .sort((a, b) => a.prune - b.prune)
    .map((r) => r.kind as K);
}
