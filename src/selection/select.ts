/**
 * The one selection of sessions (docs/decisions/selection.md). Every command that selects sessions reads through
 * here: `sessions list`, the bulk verbs, `sessions wait`, `stats` (through `selectSessions`) and the watches of
 * `sessions list -w`, `top` and `listen` (through `sessionSelection`, whose `query`, `read` and `match` they poll
 * with). The service filters what it can (the time selectors, `include_archived`); svc tests the rest while paging
 * (the derived states, `--agent`, `-l`, `--requires-action`, `--error-type`), reading pages until enough match or
 * the pages end: a limit counts matches, never rows read.
 */
import type { ApiClient, Query } from '../api/client';
import type { ListOptions } from '../api/paginate';
import { agents, type Obj } from '../api/resources';
import { sessions } from '../api/sessions';
import type { Ctx } from '../runtime/context';
import { matchesStatus, type SessionStateInput } from '../session/state';
import { resolveId } from './names';
import type { SessionSelectors } from './selectors';
import type { SessionEvent } from '../wire/events';

/** Pages of the largest size the service serves: a selection svc filters reads fewer, larger pages. */
export const SELECT_PAGE = 1000;

/** Matches a selection shows without `--limit` or `--all`: as many as one page of the service's default size. */
export const DEFAULT_MATCHES = 50;

/** How a selection pages: the list options (`limit` counts matches), plus a count of the pages read. */
export interface SelectOptions extends ListOptions {
  /** Told after each page read. */
  onPage?: () => void;
  /** Where `--error-type` reads a session's newest events (a command that reads them anyway shares its read). */
  recent?: RecentEvents;
}

/** A session's newest events, newest first: one page, at least ERROR_TAIL events when it has them. */
export type RecentEvents = (sessionId: string) => Promise<readonly SessionEvent[]>;

/** What a watch polls with: the service's filters, and the test of what it cannot filter. */
export interface SessionSelection {
  /** The service's own filters (time selectors, `include_archived`) with any extra filters given. */
  query: Query;
  /** Whether svc must test what the service returns (any client-side condition). */
  clientSide: boolean;
  /** Passes the listed sessions through, first reading what `match` needs of each (the last turn's error type). */
  read: (items: AsyncIterable<Obj>) => AsyncGenerator<Obj>;
  /** The client-side conditions, on a session `read` passed. */
  match: (s: Obj) => boolean;
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

/** Whether svc must filter what the service returns (the selectors the service has no filter for). */
export function filtersClientSide(sel: SessionSelectors): boolean {
  return Boolean(sel.status || sel.agent || sel.requiresAction || sel.idleForMs !== undefined || sel.labels || sel.errorType);
}

/** A session waits on a human: a tool confirmation or a custom tool result (the spec's `requires_action`). */
export function requiresAction(s: Obj): boolean {
  const stop = s.stop_reason as { type?: unknown } | null | undefined;
  return s.requires_action === true || stop?.type === 'requires_action';
}

/** Whether a session's last turn ended in `session.error` (its stop is `error`): only then has it an error type. */
export const endedInError = (s: Obj): boolean => (s.stop_reason as { type?: unknown } | null | undefined)?.type === 'error' && s.status === 'idle';

/**
 * The test svc applies while paging, for what the service cannot filter; `agentId` is the resolved `--agent`,
 * `errorTypeOf` what the last turn's `session.error` was (read beforehand: `--error-type`).
 */
export function matcher(sel: SessionSelectors, agentId?: string, errorTypeOf: (s: Obj) => string | undefined = () => undefined): (s: Obj) => boolean {
  return (s) =>
    (!sel.status || sel.status.some((v) => matchesStatus(s as SessionStateInput, v))) &&
    (agentId === undefined || s.agent_id === agentId) &&
    (!sel.requiresAction || requiresAction(s)) &&
    (sel.idleForMs === undefined || s.status === 'idle') &&
    (!sel.labels || sel.labels(s.metadata)) &&
    (!sel.errorType || (endedInError(s) && sel.errorType.includes(errorTypeOf(s) ?? '')));
}

/** `--agent` turned into an agent ID (by ID, else by exact name). */
export async function agentIdOf(c: ApiClient, sel: SessionSelectors): Promise<string | undefined> {
  return sel.agent === undefined ? undefined : resolveId(c, agents, 'agent', sel.agent);
}

/** Newest events read of a failed session's history to find its last turn's `session.error`: one page, bounded. */
export const ERROR_TAIL = 50;
/** Error types remembered (by session and `updated_at`) across a watch's polls, so a settled session is read once. */
const ERROR_CACHE = 10_000;

/** A session's newest ERROR_TAIL events, read as one page. */
const errorTail =
  (c: ApiClient, signal?: AbortSignal): RecentEvents =>
  async (sessionId) =>
    (await sessions.historyPage(c, sessionId, { order: 'desc', page_size: ERROR_TAIL }, undefined, signal)).items ?? [];

/**
 * The `error_type` of the `session.error` that ended the last turn: the newest of the history's last ERROR_TAIL
 * events (`newest` first; a longer page is cut to them, so every reader finds the same), not before the turn's
 * `running` status. Undefined when the tail holds none.
 */
function lastTurnErrorType(newest: readonly SessionEvent[]): string | undefined {
  for (const e of newest.slice(0, ERROR_TAIL)) {
    const data = (e.data ?? {}) as { error_type?: unknown; status?: unknown };
    if (e.type === 'session.error') return typeof data.error_type === 'string' ? data.error_type : undefined;
    if (e.type === 'session.status' && data.status === 'running') return undefined;
  }
  return undefined;
}

/** The selection of `sel`: `--agent` resolved once, and the error types read as the sessions pass. */
export async function sessionSelection(
  c: ApiClient,
  sel: SessionSelectors,
  now: number,
  extra: Query = {},
  signal?: AbortSignal,
  recent: RecentEvents = errorTail(c, signal),
): Promise<SessionSelection> {
  const agentId = await agentIdOf(c, sel);
  const errors = new Map<string, { at: unknown; type: string | undefined }>();
  const errorTypeOf = (s: Obj) => errors.get(String(s.id))?.type;
  const base = matcher({ ...sel, errorType: undefined }, agentId);
  async function* read(items: AsyncIterable<Obj>): AsyncGenerator<Obj> {
    for await (const s of items) {
      const id = String(s.id);
      // Only a session that passes every other test and ended in an error costs a history read.
      if (sel.errorType && endedInError(s) && base(s) && errors.get(id)?.at !== s.updated_at) {
        if (errors.size >= ERROR_CACHE) errors.clear();
        errors.set(id, { at: s.updated_at, type: lastTurnErrorType(await recent(id)) });
      }
      yield s;
    }
  }
  return { query: { ...extra, ...serviceQuery(sel, now) }, clientSide: filtersClientSide(sel), read, match: matcher(sel, agentId, errorTypeOf) };
}

/**
 * The selected sessions, page by page in constant memory: the service filters by time, svc by the rest. `lo` bounds
 * the listing as `list` does, except that with a client-side condition it counts matches: `limit` matches, or
 * without `--limit` and `--all` as many as one page would show (`pageSize`, else DEFAULT_MATCHES), reading pages of
 * SELECT_PAGE until they are found or the pages end.
 */
export async function* selectSessions(
  c: ApiClient,
  sel: SessionSelectors,
  now: number,
  lo: SelectOptions = { all: true },
  extra: Query = {},
): AsyncGenerator<Obj> {
  const s = await sessionSelection(c, sel, now, extra, lo.signal, lo.recent);
  yield* filterPaged((q, l) => s.read(sessions.list(c, q, l)), s.query, s.clientSide ? s.match : undefined, lo);
}

/**
 * A listing svc filters while paging (constant memory): without `test`, the service's own listing as it is. With
 * one, the limit counts matches, so the pages are read until enough match and the service is not told it; `onRest`
 * is told only when a further match was seen (or the pages were not all read).
 */
export async function* filterPaged(
  list: (query: Query, lo: ListOptions) => AsyncIterable<Obj>,
  query: Query,
  test: ((o: Obj) => boolean) | undefined,
  lo: SelectOptions,
): AsyncGenerator<Obj> {
  if (!test) {
    yield* list(query, lo);
    return;
  }
  let rest: { nextPageToken?: string } | undefined;
  const pages: ListOptions = {
    pageSize: lo.pageSize ?? SELECT_PAGE,
    pageToken: lo.pageToken,
    all: true,
    signal: lo.signal,
    onPage: lo.onPage,
    onRest: (r) => (rest = r),
  };
  let left = lo.limit ?? (lo.all ? Infinity : (lo.pageSize ?? DEFAULT_MATCHES));
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

/** Counts the pages a selection reads, for `pagesRead`. */
export class PageCount {
  pages = 0;
  readonly onPage = (): void => void this.pages++;
}

/**
 * On a terminal (standard error), how many pages a selection read when it was more than one: the cost of a
 * client-side condition is said, never hidden. Off a terminal, nothing.
 */
export async function sayPagesRead(ctx: Ctx, count: PageCount, matched: number): Promise<void> {
  if (count.pages <= 1 || !ctx.io.stderr.isTTY) return;
  await ctx.msg(`read ${count.pages} pages of sessions to find ${matched} match${matched === 1 ? '' : 'es'}`);
}
