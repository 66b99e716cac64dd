import type { ApiClient } from '../../api/client';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { flagTable, type Flags } from '../../cli/flags';
import type { BulkTarget } from '../../bulk/execute';
import { STATUS_FILTER_VALUES } from '../../session/state';
import { hasSelectors, parseSelectors, readIds, selectSessions, type SessionSelectors } from '../../selection/selectors';
import { PageCount, SELECT_PAGE, sayPagesRead } from '../../selection/select';

/** The session selectors of docs/behaviour.md "Selecting", on every verb that lists or acts on many sessions. */
export const SELECTOR_FLAGS = flagTable({
  status: { flags: '--status <status,...>', description: `only sessions in one of these states, comma-separated: ${STATUS_FILTER_VALUES.join(', ')}` },
  agent: { flags: '--agent <agent>', description: 'only sessions of this agent (ID or name)' },
  requiresAction: { flags: '--requires-action', description: 'only sessions waiting on a tool confirmation or a custom tool result' },
  olderThan: { flags: '--older-than <duration>', description: 'only sessions created longer ago than this (90s, 30m, 2h, 7d)' },
  newerThan: { flags: '--newer-than <duration>', description: 'only sessions created within this long (90s, 30m, 2h, 7d)' },
  idleFor: { flags: '--idle-for <duration>', description: 'only idle sessions not updated for this long (90s, 30m, 2h, 7d)' },
  selector: { flags: '-l, --selector <selector>', description: "only sessions whose metadata matches: 'key=value,key!=value,key,!key'" },
  errorType: {
    flags: '--error-type <type,...>',
    description: 'only sessions whose last turn ended in a session.error of one of these types (model_error, timeout, …)',
  },
});

/** `--include-archived`, on the selecting verbs that read archived sessions too. */
export const INCLUDE_ARCHIVED_FLAGS = flagTable({ includeArchived: { flags: '--include-archived', description: 'include archived sessions' } });

/** The selectors where `-l` means something else (`sessions grep -l`): `--selector` has no short form. */
export const SELECTOR_FLAGS_NO_SHORT = flagTable({
  ...SELECTOR_FLAGS,
  selector: { ...SELECTOR_FLAGS.selector, flags: '--selector <selector>' },
});

/** Parsed before any request: the IDs given (arguments or `-`) and the selectors. */
export interface Picked {
  ids?: string[];
  stdin: boolean;
  selectors: SessionSelectors;
}

/** Arguments and selector flags, checked: `-` alone, IDs or selectors but not both, and something given. */
export function pick(args: string[], opts: Flags): Picked {
  const selectors = parseSelectors(opts);
  const stdin = args.includes('-');
  if (stdin && args.length > 1) throw new UsageError('give IDs as arguments or - for standard input, not both');
  if (args.length && hasSelectors(selectors)) throw new UsageError('give session IDs or selectors (--status, --agent, …), not both');
  if (!args.length && !hasSelectors(selectors))
    throw new UsageError('give session IDs, - to read them from standard input, or selectors (--status, --agent, -l, …)');
  return { ids: stdin || !args.length ? undefined : args, stdin, selectors };
}

/** Exactly one ID argument and nothing else: the verb's single-session behaviour, unchanged. */
export const isSingle = (p: Picked) => !p.stdin && p.ids?.length === 1;

/**
 * The targets, fixed before the first write: IDs as given (de-duplicated, in order), or the selected sessions with
 * what the list showed of each (status, epoch), so an action needs no second read.
 */
export async function targetsOf(ctx: Ctx, c: ApiClient, p: Picked): Promise<BulkTarget[]> {
  const ids = p.stdin ? await readIds(ctx.io.stdin) : p.ids;
  if (ids) return [...new Set(ids)].map((id) => ({ id }));
  const targets: BulkTarget[] = [];
  const count = new PageCount();
  for await (const s of selectSessions(c, p.selectors, ctx.now(), { all: true, pageSize: SELECT_PAGE, onPage: count.onPage, signal: ctx.io.signal }))
    targets.push({ id: String(s.id), row: slim(s) });
  await sayPagesRead(ctx, count, targets.length);
  return targets;
}

export { SELECT_PAGE };

/** What an action reads of a listed session; the rest is dropped so a large selection stays small. */
function slim(s: Record<string, unknown>): Record<string, unknown> {
  const { id, status, title, control_epoch, stopping, interrupted, continue_pending, archived_at } = s;
  return { id, status, title, control_epoch, stopping, interrupted, continue_pending, archived_at };
}
