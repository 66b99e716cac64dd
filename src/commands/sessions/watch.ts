import type { Obj } from '../../api/resources';
import type { Ctx } from '../../context';
import { runWatchView, type WatchCell, type WatchViewOptions } from '../../fleet/watch-view';

const SESSION_CELLS: WatchCell[] = [
  { header: 'ID', width: 30, get: (s) => s.id },
  { header: 'STATUS', width: 12, get: (s: Obj) => (s.archived_at ? 'archived' : s.status) },
  { header: 'TITLE', width: 30, get: (s) => s.title },
];

/** The watched session list: kubectl-style rows with an age column on a terminal, NDJSON `{"type","object"}` off it. */
export function runWatch(ctx: Ctx, o: Omit<WatchViewOptions, 'cells'>): Promise<void> {
  return runWatchView(ctx, { ...o, cells: SESSION_CELLS });
}
