/**
 * How `explain` and `rerun` pick sessions: IDs, `-` or the selectors of every session verb (src/selection), plus
 * `--error-type T`. The one place these two verbs call the selection, so the shared selection engine can replace it.
 * `--error-type` is applied here as a client-side condition after the selection (src/fleet/error-type-filter.ts).
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import type { Flags, FlagTable } from '../../cli/action';
import type { Session } from '../../wire/resources';
import { inParallel } from '../../parallel';
import { hasSelectors, parseSelectors, readIds, selectSessions } from '../../selection/selectors';
import { filterByErrorType, READS_IN_FLIGHT } from '../../fleet/error-type-filter';
import type { RecentHistory } from '../../fleet/history';
import type { Selection } from '../../fleet/explain/group';
import { pickable } from '../../cli/pick-arg';
import { RECENT_SESSIONS } from './pick';
import { addSelectorFlags, pick, SELECT_PAGE, SELECTOR_FLAGS, type Picked } from './selectors';

export const FLEET_SELECT_FLAGS = { ...SELECTOR_FLAGS, includeArchived: 'switch', errorType: 'string' } as const satisfies FlagTable;

/** The selectors and `--error-type`; no ID and no selector picks one session on a terminal. */
export function addFleetSelectFlags(cmd: Command): Command {
  pickable(cmd, RECENT_SESSIONS, { missing: (flags) => flags.errorType === undefined && !hasSelectors(parseSelectors(flags)) });
  addSelectorFlags(cmd, { includeArchived: true });
  return cmd.option('--error-type <type>', 'only sessions whose last turn ended in a session.error of this error_type (engine_overloaded, …)');
}

/** The sessions asked for, checked before any request. */
export interface FleetPick {
  picked: Picked;
  errorType?: string;
  /** The same selection as command-line words, for the commands explain suggests. */
  selection: Selection;
}

/** The selector flags as typed, for a suggested command (without `--status` and `--error-type`, which a group sets). */
function selectionWords(f: Flags): string[] {
  const words: string[] = [];
  const add = (flag: string, v: unknown) => v !== undefined && words.push(flag, String(v));
  add('--agent', f.agent);
  if (f.requiresAction) words.push('--requires-action');
  add('--older-than', f.olderThan);
  add('--newer-than', f.newerThan);
  add('--idle-for', f.idleFor);
  add('-l', f.selector);
  if (f.includeArchived) words.push('--include-archived');
  return words;
}

export function parseFleetPick(args: string[], flags: Flags): FleetPick {
  const errorType = flags.errorType === undefined ? undefined : String(flags.errorType).trim();
  if (errorType === '') throw new UsageError('--error-type takes a session.error type, such as engine_overloaded');
  // `--error-type` alone selects too: every session whose last turn ended in that error.
  const picked: Picked =
    errorType !== undefined && !args.length && !hasSelectors(parseSelectors(flags)) ? { stdin: false, selectors: parseSelectors(flags) } : pick(args, flags);
  if (errorType !== undefined && args.length) throw new UsageError('give session IDs or selectors (--error-type, --status, …), not both');
  if (flags.includeArchived && args.length) throw new UsageError('--include-archived widens a selection: session IDs are read whether archived or not');
  return { picked, errorType, selection: { ...(picked.ids || picked.stdin ? { ids: [] } : {}), flags: selectionWords(flags) } };
}

/** The sessions picked, as full objects: each ID read, or the selection paged; then `--error-type`. */
export async function selectFleet(ctx: Ctx, c: ApiClient, p: FleetPick, history: RecentHistory): Promise<Session[]> {
  const ids = p.picked.stdin ? await readIds(ctx.io.stdin, ctx.io.signal) : p.picked.ids;
  let list: Session[] = [];
  if (ids) {
    const unique = [...new Set(ids)];
    list = new Array(unique.length);
    await inParallel(unique, READS_IN_FLIGHT, async (id, i) => void (list[i] = await sessions.get(c, id)));
    p.selection.ids = unique;
  } else for await (const s of selectSessions(c, p.picked.selectors, ctx.now(), { all: true, pageSize: SELECT_PAGE })) list.push(s as Session);
  return p.errorType === undefined ? list : filterByErrorType(list, p.errorType, history);
}
