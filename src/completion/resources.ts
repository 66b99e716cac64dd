import type { Obj } from '../api/resources';
import { seg } from '../api/path';
import type { Candidate } from './cache';
import { pathKind } from './names';

/** Where the candidates of one kind of argument come from. */
interface Source {
  /** Path template: `{sessions}` is the ID given earlier on the line to an argument naming that source. */
  path: string;
  /** The candidates of a response; default: the page's items by `id`, labelled by name or title. */
  pick?: (body: Obj) => Candidate[];
  /** The service lists them newest first already (else: oldest first, newest shown first). */
  newestFirst?: boolean;
  /** A single object, not a page: no `page_size` is sent. */
  single?: boolean;
  /** Answers change from one command to the next (awaited confirmations): the cache is only a fallback. */
  volatile?: boolean;
}

const itemsOf = (body: Obj): Obj[] => (Array.isArray(body.items) ? (body.items as Obj[]) : []);
const oneLine = (s: unknown): string => (typeof s === 'string' ? s.replace(/\s+/g, ' ').trim() : '');

/** Version lists complete the `version` member, which is what `--version` and `versions` take. */
const versions = (body: Obj): Candidate[] =>
  itemsOf(body)
    .filter((v) => typeof v.version === 'string' || typeof v.version === 'number')
    .map((v) => ({ id: String(v.version), label: labelOf(v) }));

/** Sources by key: a group's own IDs, nested lists, and `group:name` where the name means something else per group. */
const SOURCES: Record<string, Source> = {
  agents: { path: '/v1/agents' },
  sessions: { path: '/v1/sessions' },
  environments: { path: '/v1/environments' },
  vaults: { path: '/v1/vaults' },
  skills: { path: '/v1/skills' },
  plugins: { path: '/v1/plugins' },
  'memory-stores': { path: '/v1/memory-stores', newestFirst: true },
  dreams: { path: '/v1/dreams' },
  triggers: { path: '/v1/triggers' },
  artifacts: { path: '/v1/artifacts' },
  files: { path: '/v1/files' },
  threads: { path: '/v1/sessions/{sessions}/threads' },
  resources: { path: '/v1/sessions/{sessions}/resources' },
  credentials: { path: '/v1/vaults/{vaults}/credentials' },
  memories: { path: '/v1/memory-stores/{memory-stores}/memories', newestFirst: true },
  work: { path: '/v1/environments/{environments}/work' },
  'agents:version': { path: '/v1/agents/{agents}/versions', newestFirst: true, pick: versions },
  'skills:version': { path: '/v1/skills/{skills}/versions', newestFirst: true, pick: versions },
  'plugins:version': { path: '/v1/plugins/{plugins}/versions', newestFirst: true, pick: versions },
  'artifacts:version': { path: '/v1/artifacts/{artifacts}/versions', newestFirst: true, pick: versions },
  'memories:version': { path: '/v1/memory-stores/{memory-stores}/memories/{memories}/versions', newestFirst: true },
  // The tool confirmations and custom tool results the session awaits (spec: `stop_reason.event_ids`): one cheap read.
  'sessions:event': {
    path: '/v1/sessions/{sessions}',
    single: true,
    volatile: true,
    pick: (s) => {
      const ids = (s.stop_reason as { event_ids?: unknown } | null | undefined)?.event_ids;
      return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string').map((id) => ({ id, label: 'awaited' })) : [];
    },
  },
};

/** Argument and option-value names (after `_`→`-` and without `-id`) that name a source other than themselves. */
const ALIASES: Record<string, string> = {
  agent: 'agents',
  session: 'sessions',
  environment: 'environments',
  env: 'environments',
  'egress-environment': 'environments',
  vault: 'vaults',
  skill: 'skills',
  plugin: 'plugins',
  'memory-store': 'memory-stores',
  store: 'memory-stores',
  dream: 'dreams',
  trigger: 'triggers',
  artifact: 'artifacts',
  file: 'files',
  thread: 'threads',
  resource: 'resources',
  credential: 'credentials',
  memory: 'memories',
  'agent-version': 'agents:version',
};

/** The source key of an argument of a command in `group`: `<id>` is the group's own, `file_id` a file, `<file>` none (a path). */
function sourceKey(group: string, argName: string): string | undefined {
  if (pathKind(argName)) return undefined;
  const name = argName
    .toLowerCase()
    .replace(/_/g, '-')
    .replace(/\.\.\.$/, '')
    .replace(/-id$/, '');
  if (name === 'id' || name === 'ids') return group;
  return ALIASES[name] ?? (SOURCES[`${group}:${name}`] ? `${group}:${name}` : name);
}

export interface Listing {
  /** Cache key part: the source and the filled path, so each parent's list is kept apart. */
  key: string;
  path: string;
  query: Record<string, string | number>;
  volatile: boolean;
  pick: (body: Obj) => Candidate[];
}

/**
 * The request whose answer completes argument `argName` of a command in `group`, with `given` the
 * arguments before it by name; undefined when nothing lists them or a parent ID is not on the line yet.
 */
export function listingFor(group: string, argName: string, given: Record<string, string>, pageSize: number): Listing | undefined {
  const key = sourceKey(group, argName);
  const source = key === undefined ? undefined : SOURCES[key];
  if (!key || !source) return undefined;
  const parents: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    const k = sourceKey(group, name);
    if (k && value) parents[k] = value;
  }
  const missing = [...source.path.matchAll(/\{([^}]+)\}/g)].some((m) => !parents[m[1]]);
  if (missing) return undefined;
  const path = source.path.replace(/\{([^}]+)\}/g, (_, k: string) => seg(parents[k]));
  return {
    key: `${key}|${path}`,
    path,
    query: source.single ? {} : { page_size: pageSize },
    volatile: Boolean(source.volatile),
    pick: source.pick ?? ((body) => byId(itemsOf(body), Boolean(source.newestFirst))),
  };
}

/** Items with an ID, newest first: an oldest-first list is reversed, so rows created in the same instant stay newest first too. */
function byId(items: Obj[], newestFirst: boolean): Candidate[] {
  // Timestamps are ISO 8601 in one format: code unit order is time order (localeCompare would start ICU's collator).
  const newer = (a: Obj, b: Obj) => {
    const [x, y] = [String(a.created_at ?? ''), String(b.created_at ?? '')];
    return x > y ? -1 : x < y ? 1 : 0;
  };
  const ordered = newestFirst ? items : [...items].reverse().sort(newer);
  return ordered.filter((o): o is Obj & { id: string } => typeof o.id === 'string').map((o) => ({ id: o.id, label: labelOf(o) }));
}

/** What a person recognises an object by: its name or title, a memory's path (after a version's operation), a work row's status. */
function labelOf(o: Obj): string {
  const named = [o.name, o.title, o.filename, o.display_title, o.path, o.agent_name].find((v) => typeof v === 'string' && v.trim());
  const parts = named ? [o.operation, named] : [o.status, o.type, o.file_id];
  return oneLine(parts.filter((v) => typeof v === 'string').join(' '));
}
