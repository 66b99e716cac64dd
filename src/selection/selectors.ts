import type { Query } from '../api/client';
import type { ListOptions } from '../api/paginate';
import type { Obj } from '../api/resources';
import { UsageError } from '../runtime/errors';
import { didYouMean } from '../text/similar';
import { STATUS_FILTER_VALUES } from '../session/state';
import type { InStream } from '../runtime/io';
import { readLines } from '../input/read';
import { LIMITS } from '../wire/limits';
import { MAX_AGE_MS, parseDuration } from '../text/duration';
import { parseLabelSelector, type LabelTest } from './labels';
import { filterPaged, matcher, serviceQuery } from './select';

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
  /** `--error-type`: the last turn ended in a `session.error` of one of these `error_type`s. */
  errorType?: string[];
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
  errorType?: string;
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
  if (f.errorType !== undefined) sel.errorType = parseErrorTypes(f.errorType);
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

/** `--error-type A,B`: `error_type` words (a newer service's too, so any word is taken), else exit 2. */
export function parseErrorTypes(text: string): string[] {
  const values = text.split(',').map((s) => s.trim());
  const bad = values.find((v) => !/^[A-Za-z0-9_.-]+$/.test(v));
  if (bad !== undefined) throw new UsageError(`--error-type takes session.error types separated by commas, such as model_error,timeout (got "${text}")`);
  return values;
}

/** Whether any selector narrows the fleet (`--include-archived` alone widens it, so it does not count). */
export function hasSelectors(sel: SessionSelectors): boolean {
  return Object.entries(sel).some(([k, v]) => k !== 'includeArchived' && v !== undefined);
}

// The engine (src/selection/select.ts), under the names the commands have always imported from here.
export {
  agentIdOf,
  filterPaged,
  filtersClientSide,
  matcher,
  requiresAction,
  selectSessions,
  serviceQuery,
  sessionSelection,
  type SelectOptions,
  type SessionSelection,
} from './select';

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
