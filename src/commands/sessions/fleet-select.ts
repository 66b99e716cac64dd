/**
 * How `explain` and `rerun` pick sessions: IDs, `-` or the selectors of every session verb, `--error-type` among them,
 * through the one selection engine (src/selection/select.ts). They need whole session objects, so they read the IDs
 * given, or page the selection.
 */
import type { ApiClient } from '../../api/client';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { flagTable, type Flags } from '../../cli/flags';
import type { Session } from '../../wire/resources';
import { inParallel } from '../../async/parallel';
import { readIds, selectSessions } from '../../selection/selectors';
import type { RecentEvents } from '../../selection/select';
import { READS_IN_FLIGHT } from '../../fleet/reads';
import type { Selection } from '../../fleet/explain/group';
import { INCLUDE_ARCHIVED_FLAGS, pick, SELECT_PAGE, SELECTOR_FLAGS, type Picked } from './selectors';

/** The selectors, `--error-type` among them, and `--include-archived`: spread into explain's and rerun's tables. */
export const FLEET_SELECT_FLAGS = flagTable({ ...SELECTOR_FLAGS, ...INCLUDE_ARCHIVED_FLAGS });

/** The sessions asked for, checked before any request. */
export interface FleetPick {
  picked: Picked;
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
  const picked = pick(args, flags);
  if (flags.includeArchived && args.length) throw new UsageError('--include-archived widens a selection: session IDs are read whether archived or not');
  return { picked, selection: { ...(picked.ids || picked.stdin ? { ids: [] } : {}), flags: selectionWords(flags) } };
}

/** The sessions picked, as full objects: each ID read, or the selection paged. */
export async function selectFleet(ctx: Ctx, c: ApiClient, p: FleetPick, recent?: RecentEvents): Promise<Session[]> {
  const ids = p.picked.stdin ? await readIds(ctx.io.stdin, ctx.io.signal) : p.picked.ids;
  let list: Session[] = [];
  if (ids) {
    const unique = [...new Set(ids)];
    list = new Array(unique.length);
    await inParallel(unique, READS_IN_FLIGHT, async (id, i) => void (list[i] = await sessions.get(c, id)));
    p.selection.ids = unique;
  } else
    for await (const s of selectSessions(c, p.picked.selectors, ctx.now(), { all: true, pageSize: SELECT_PAGE, signal: ctx.io.signal, recent }))
      list.push(s as Session);
  return list;
}
