import type { ApiClient, Query } from '../api/client';
import type { ListOptions } from '../api/paginate';
import { agents, type Obj } from '../api/resources';
import { sessions } from '../api/sessions';
import { UsageError } from '../errors';
import { didYouMean } from '../text/similar';
import { matchesStatus, STATUS_FILTER_VALUES, type SessionStateInput } from '../session-state';
import type { InStream } from '../io';
import { readLines } from '../input/read';
import { LIMITS } from '../wire/limits';
import { MAX_AGE_MS, parseDuration } from '../text/duration';
import { parseLabelSelector, type LabelTest } from './labels';
import { resolveId } from './names';

/** What picks sessions out of the fleet; every member optional, all given must hold. */
export interface SessionSelectors {
  status?: string[];
  /** An agent ID or name, resolved once when selecting. */
  agent?: string;
  requiresAction?: boolean;
  olderThanMs?: number;
  newerThanMs?: number;
  idleForMs?: number;
  labels?: LabelTest;
  includeArchived?: boolean;
}

/** The selector flags as commander hands them over (camel-cased option names). */
export interface SelectorFlags {
  status?: string;
  agent?: string;
  requiresAction?: boolean;
  olderThan?: string;
  newerThan?: string;
  idleFor?: string;
  selector?: string;
  includeArchived?: boolean;
}

/** Checks every selector flag before anything is sent: a malformed one is exit 2 naming its flag. */
export function parseSelectors(f: SelectorFlags): SessionSelectors {
  const sel: SessionSelectors = {};
  if (f.status !== undefined) sel.status = parseStatusList(f.status, STATUS_FILTER_VALUES);
  if (f.agent !== undefined) {
    if (f.agent.trim() === '') throw new UsageError('--agent takes an agent ID or name');
    sel.agent = f.agent;
  }
  if (f.requiresAction) sel.requiresAction = true;
  if (f.olderThan !== undefined) sel.olderThanMs = parseDuration(f.olderThan, '--older-than', MAX_AGE_MS);
  if (f.newerThan !== undefined) sel.newerThanMs = parseDuration(f.newerThan, '--newer-than', MAX_AGE_MS);
  if (f.idleFor !== undefined) sel.idleForMs = parseDuration(f.idleFor, '--idle-for', MAX_AGE_MS);
  if (f.selector !== undefined) sel.labels = parseLabelSelector(f.selector, '--selector');
  if (f.includeArchived) sel.includeArchived = true;
  return sel;
}

/**
 * `--status A,B`: each value one of `valid` (the service's statuses and the derived states), else exit 2 naming them,
 * with the closest as a suggestion.
 */
export function parseStatusList(text: string, valid: readonly string[]): string[] {
  const values = text.split(',').map((s) => s.trim());
  if (values.some((s) => s === '')) throw new UsageError(`--status takes statuses separated by commas, such as idle,running (got "${text}")`);
  const unknown = values.find((v) => !valid.includes(v));
  if (unknown !== undefined) throw new UsageError(`unknown --status "${unknown}"${didYouMean(unknown, valid)}: use ${valid.join(', ')}`);
  return values;
}

/** Whether any selector narrows the fleet (`--include-archived` alone widens it, so it does not count). */
export function hasSelectors(sel: SessionSelectors): boolean {
  return Object.entries(sel).some(([k, v]) => k !== 'includeArchived' && v !== undefined);
}

/** Whether svc must filter what the service returns (the selectors the service has no filter for). */
export function filtersClientSide(sel: SessionSelectors): boolean {
  return Boolean(sel.status || sel.agent || sel.requiresAction || sel.idleForMs !== undefined || sel.labels);
}

/** The service's own filters: the time selectors as `created_at_*` / `updated_at_*`, and `include_archived`. */
export function serviceQuery(sel: SessionSelectors, now: number): Query {
  const at = (ms: number) => new Date(now - ms).toISOString();
  const q: Query = {};
  if (sel.olderThanMs !== undefined) q.created_at_lt = at(sel.olderThanMs);
  if (sel.newerThanMs !== undefined) q.created_at_gt = at(sel.newerThanMs);
  if (sel.idleForMs !== undefined) q.updated_at_lt = at(sel.idleForMs);
  if (sel.includeArchived) q.include_archived = true;
  return q;
}

/** A session waits on a human: a tool confirmation or a custom tool result (the spec's `requires_action`). */
export function requiresAction(s: Obj): boolean {
  const stop = s.stop_reason as { type?: unknown } | null | undefined;
  return s.requires_action === true || stop?.type === 'requires_action';
}

/** The test svc applies while paging, for what the service cannot filter; `agentId` is the resolved `--agent`. */
export function matcher(sel: SessionSelectors, agentId?: string): (s: Obj) => boolean {
  return (s) =>
    (!sel.status || sel.status.some((v) => matchesStatus(s as SessionStateInput, v))) &&
    (agentId === undefined || s.agent_id === agentId) &&
    (!sel.requiresAction || requiresAction(s)) &&
    (sel.idleForMs === undefined || s.status === 'idle') &&
    (!sel.labels || sel.labels(s.metadata));
}

/** `--agent` turned into an agent ID (by ID, else by exact name). */
export async function agentIdOf(c: ApiClient, sel: SessionSelectors): Promise<string | undefined> {
  return sel.agent === undefined ? undefined : resolveId(c, agents, 'agent', sel.agent);
}

/**
 * The selected sessions, page by page in constant memory: the service filters by time, svc by the rest. `lo`
 * bounds the listing as `list` does; `limit` counts matches, not sessions read.
 */
export async function* selectSessions(
  c: ApiClient,
  sel: SessionSelectors,
  now: number,
  lo: ListOptions = { all: true },
  extra: Query = {},
): AsyncGenerator<Obj> {
  const test = matcher(sel, await agentIdOf(c, sel));
  const query = { ...extra, ...serviceQuery(sel, now) };
  yield* filterPaged((q, l) => sessions.list(c, q, l), query, filtersClientSide(sel) ? test : undefined, lo);
}

/**
 * A listing svc filters while paging (constant memory): without `test`, the service's own listing as it is. With
 * one, the limit counts matches, so the pages are read until enough match and the service is not told it.
 */
export async function* filterPaged(
  list: (query: Query, lo: ListOptions) => AsyncIterable<Obj>,
  query: Query,
  test: ((o: Obj) => boolean) | undefined,
  lo: ListOptions,
): AsyncGenerator<Obj> {
  if (!test) {
    yield* list(query, lo);
    return;
  }
  const pages: ListOptions = { pageSize: lo.pageSize, pageToken: lo.pageToken, all: lo.all || lo.limit !== undefined, onRest: (r) => (rest = r) };
  let rest: { nextPageToken?: string } | undefined;
  let left = lo.limit ?? Infinity;
  let shown = 0;
  for await (const s of list(query, pages)) {
    if (!test(s)) continue;
    if (left-- <= 0) {
      lo.onRest?.({ shown });
      return;
    }
    shown++;
    yield s;
  }
  if (rest) lo.onRest?.({ shown, nextPageToken: rest.nextPageToken });
}

/** The most IDs svc reads from standard input at once: the IDs are held to act on them. */
export const MAX_STDIN_IDS = 1_000_000;

/**
 * IDs from standard input, one per line, read as lines in bounded memory: a line of at most 4 MiB (an NDJSON object
 * from `-o ndjson` counts: its `id`), at most MAX_STDIN_IDS of them. Blank lines are skipped; a line that is neither
 * an ID nor such an object, or input past a bound, is exit 2 and nothing is sent.
 */
export async function readIds(stdin: InStream, signal?: AbortSignal, max: number = MAX_STDIN_IDS): Promise<string[]> {
  const ids: string[] = [];
  for await (const lines of readLines(stdin, { what: 'standard input', maxLine: LIMITS.jsonBody, signal }))
    for (const { n, text } of lines) {
      const line = text.trim();
      if (line === '') continue;
      if (ids.length === max) throw new UsageError(`standard input holds more than ${max} IDs: svc reads at most ${max} at once; nothing was sent`);
      ids.push(line.startsWith('{') ? idOfJson(line, n) : line);
    }
  return ids;
}

function idOfJson(line: string, n: number): string {
  let obj: unknown;
  try {
    obj = JSON.parse(line);
  } catch {
    throw new UsageError(`standard input line ${n} starts with "{" but is not JSON: give one ID per line, or NDJSON objects with "id"`);
  }
  const id = (obj as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || id === '') throw new UsageError(`standard input line ${n} is a JSON object without a string "id"`);
  return id;
}

/** The selectors of the resources whose manifest row has `selectors` (`--older-than`, `--newer-than`, `-l`), checked. */
export function parseResourceSelectors(f: Pick<SelectorFlags, 'olderThan' | 'newerThan' | 'selector'>): SessionSelectors {
  return parseSelectors({ olderThan: f.olderThan, newerThan: f.newerThan, selector: f.selector });
}

/** A resource list selected: the time selectors as the service's `created_at_*` filters, `-l` applied while paging. */
export function selectResources(
  list: (query: Query, lo: ListOptions) => AsyncIterable<Obj>,
  sel: SessionSelectors,
  now: number,
  lo: ListOptions,
  extra: Query = {},
): AsyncGenerator<Obj> {
  return filterPaged(list, { ...extra, ...serviceQuery(sel, now) }, sel.labels ? matcher(sel) : undefined, lo);
}
