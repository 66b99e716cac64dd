import { RESOURCE_LIST, resourceOf, type ResourceEntry } from '../api/manifest';
import type { Obj } from '../api/resources';
import { seg } from '../api/path';
import type { Candidate } from './cache';
import { pathKind } from './names';
import { sessionStateText, type SessionStateInput } from '../session/state';

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
    .map((v) => ({ value: String(v.version), label: labelOf(v) }));

/**
 * A resource of the manifest: its IDs labelled by its label member, then, for a resource with names, each name that
 * names one of them alone, labelled by its ID (a name two share would be refused, one that is also an ID never reached).
 */
const resourceSource = (r: ResourceEntry): Source => ({
  path: r.path,
  newestFirst: r.newestFirst,
  pick: (body) => {
    const items = byAge(itemsOf(body), Boolean(r.newestFirst));
    const member = r.label ?? 'name';
    // Sessions alone have a derived state: an untitled one is known by it, in the words every view uses (`failed`, not `idle`).
    const unlabelled = r.group === 'sessions' ? (o: Obj) => sessionStateText(o as SessionStateInput) : labelOf;
    const ids = items.map((o) => ({ value: o.id, label: oneLine(o[member]) || unlabelled(o) }));
    return r.named ? [...ids, ...namesOf(items)] : ids;
  },
});

function namesOf(items: Array<Obj & { id: string }>): Candidate[] {
  const count = new Map<string, number>();
  for (const o of items) if (typeof o.name === 'string' && o.name) count.set(o.name, (count.get(o.name) ?? 0) + 1);
  const ids = new Set(items.map((o) => o.id));
  return items.filter((o) => count.get(o.name as string) === 1 && !ids.has(o.name as string)).map((o) => ({ value: o.name as string, label: o.id, id: o.id }));
}

/** Where every argument svc completes finds its candidates: sources by key, and argument names that mean another source. */
export interface CompletionTable {
  sources: Record<string, Source>;
  aliases: Record<string, string>;
}

/** The child lists that are no resource of the manifest, and `group:name` where the name means something else per group. */
const CHILD_SOURCES: Record<string, Source> = {
  threads: { path: '/v1/sessions/{sessions}/threads' },
  resources: { path: '/v1/sessions/{sessions}/resources' },
  credentials: { path: '/v1/vaults/{vaults}/credentials' },
  memories: { path: '/v1/memory-stores/{memory-stores}/memories', newestFirst: true },
  work: { path: '/v1/environments/{environments}/work' },
  'memories:version': { path: '/v1/memory-stores/{memory-stores}/memories/{memories}/versions', newestFirst: true },
  // The tool confirmations and custom tool results the session awaits (spec: `stop_reason.event_ids`): one cheap read.
  'sessions:event': {
    path: '/v1/sessions/{sessions}',
    single: true,
    volatile: true,
    pick: (s) => {
      const ids = (s.stop_reason as { event_ids?: unknown } | null | undefined)?.event_ids;
      return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string').map((value) => ({ value, label: 'awaited' })) : [];
    },
  },
};

const CHILD_ALIASES: Record<string, string> = {
  thread: 'threads',
  resource: 'resources',
  credential: 'credentials',
  memory: 'memories',
  'agent-version': 'agents:version',
};

/**
 * The table of `rows` (the manifest unless a test gives a copy): each resource by its group, its versions as
 * `group:version`, and each resource's noun (`agent`, `memory-store`) and other argument names as aliases.
 */
export function completionTable(rows: readonly ResourceEntry[] = RESOURCE_LIST): CompletionTable {
  const versioned = rows.filter((r) => r.versions);
  return {
    sources: {
      ...Object.fromEntries(rows.map((r) => [r.group, resourceSource(r)])),
      ...Object.fromEntries(versioned.map((r) => [`${r.group}:version`, { path: `${r.path}/{${r.group}}/versions`, newestFirst: true, pick: versions }])),
      ...CHILD_SOURCES,
    },
    aliases: {
      ...Object.fromEntries(rows.flatMap((r) => [r.noun.replace(/ /g, '-'), ...(r.argNames ?? [])].map((name) => [name, r.group]))),
      ...CHILD_ALIASES,
    },
  };
}

const TABLE = completionTable();

/** Sources by key (the manifest's table). */
export const SOURCES: Record<string, Source> = TABLE.sources;

/** The source key of an argument of a command in `group`: `<id>` is the group's own, `file_id` a file, `<file>` none (a path). */
function sourceKey(group: string, argName: string, t: CompletionTable): string | undefined {
  if (pathKind(argName)) return undefined;
  const name = argName
    .toLowerCase()
    .replace(/_/g, '-')
    .replace(/\.\.\.$/, '')
    .replace(/-id$/, '');
  if (name === 'id' || name === 'ids') return group;
  return t.aliases[name] ?? (t.sources[`${group}:${name}`] ? `${group}:${name}` : name);
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
export function listingFor(group: string, argName: string, given: Record<string, string>, pageSize: number, t = TABLE): Listing | undefined {
  const key = sourceKey(group, argName, t);
  const source = key === undefined ? undefined : t.sources[key];
  if (!key || !source) return undefined;
  const parents: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    const k = sourceKey(group, name, t);
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
    pick: source.pick ?? ((body) => byAge(itemsOf(body), Boolean(source.newestFirst)).map((o) => ({ value: o.id, label: labelOf(o) }))),
  };
}

/**
 * The parents on the line of the listing that completes `argName` that are resources with names (a vault, an agent):
 * each by the name it is given under in `given`, with the parent's own listing, which tells a name from an ID.
 */
export function namedParents(
  group: string,
  argName: string,
  given: Record<string, string>,
  pageSize: number,
  t = TABLE,
  rows: readonly ResourceEntry[] = RESOURCE_LIST,
): Array<{ arg: string; listing: Listing }> {
  const key = sourceKey(group, argName, t);
  const source = key === undefined ? undefined : t.sources[key];
  if (!source) return [];
  const inPath = new Set([...source.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
  return Object.entries(given).flatMap(([arg, value]) => {
    const k = sourceKey(group, arg, t);
    const listing = k && value && inPath.has(k) && resourceOf(k, rows)?.named ? listingFor(k, 'id', {}, pageSize, t) : undefined;
    return listing ? [{ arg, listing }] : [];
  });
}

/** Items with an ID, newest first: an oldest-first list is reversed, so rows created in the same instant stay newest first too. */
function byAge(items: Obj[], newestFirst: boolean): Array<Obj & { id: string }> {
  // Timestamps are ISO 8601 in one format: code unit order is time order (localeCompare would start ICU's collator).
  const newer = (a: Obj, b: Obj) => {
    const [x, y] = [String(a.created_at ?? ''), String(b.created_at ?? '')];
    return x > y ? -1 : x < y ? 1 : 0;
  };
  const ordered = newestFirst ? items : [...items].reverse().sort(newer);
  return ordered.filter((o): o is Obj & { id: string } => typeof o.id === 'string');
}

/** What a person recognises an object by: its name or title, a memory's path (after a version's operation), a work row's status. */
function labelOf(o: Obj): string {
  const named = [o.name, o.title, o.filename, o.display_title, o.path, o.agent_name].find((v) => typeof v === 'string' && v.trim());
  const parts = named ? [o.operation, named] : [o.status, o.type, o.file_id];
  return oneLine(parts.filter((v) => typeof v === 'string').join(' '));
}
