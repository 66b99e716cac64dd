/**
 * Accessible mode's `svc top`: the same feed, store and reducer as the board, written as plain appended lines (no
 * alternate screen, no redraw): each session's derived state when first listed and at each change, once, and each
 * change of the connection. It only shows: `q` and Enter leaves, as does Ctrl-C (130) or SIGTERM (0).
 */
import { escapeLineControls } from '../output/controls';
import type { BoardOptions } from './open';
import { sessionStatus } from './rows';
import type { BoardState } from './state';

/** What the lines have said so far: each session's state, and the connection. */
export interface BoardSaid {
  states: ReadonlyMap<string, string>;
  connection?: string;
}

export const nothingSaidOfBoard = (): BoardSaid => ({ states: new Map() });

/** The lines a board state adds to what was said: sessions first listed, changed, or gone, then the connection. */
export function boardLines(said: BoardSaid, s: BoardState): { lines: string[]; said: BoardSaid } {
  const lines: string[] = [];
  const c = s.connection;
  const connection =
    c.kind === 'connecting'
      ? said.connection
      : c.kind === 'live'
        ? 'live'
        : `${c.unreachable ? 'service unreachable' : 'listing failed'} (attempt ${c.attempt}): ${c.message}`;
  if (connection !== said.connection) lines.push(`connection: ${escapeLineControls(connection ?? '')}`);
  const states = new Map<string, string>();
  for (const [id, row] of s.sessions) {
    const state = sessionStatus(row, s.pending[id]);
    states.set(id, state);
    if (said.states.get(id) === state) continue;
    const title = row.title ? ` "${row.title}"` : '';
    lines.push(escapeLineControls(`session ${id}${title}: ${state}`));
  }
  // A session that leaves the list was archived or deleted, or no longer matches the selectors.
  for (const id of said.states.keys()) if (!states.has(id)) lines.push(escapeLineControls(`session ${id}: no longer listed`));
  return { lines, said: { states, connection } };
}

export async function openPlainBoard(o: BoardOptions): Promise<void> {
  const { ctx } = o;
  const { stdout } = ctx.io;
  const [{ BoardStore }, { initialState }, { startFeed }, { plainUntilLeft }] = await Promise.all([
    import('./store'),
    import('./state'),
    import('./feed'),
    import('../live/plain-until-left'),
  ]);
  const store = new BoardStore(
    initialState({ readonly: true, rows: (stdout as { rows?: number }).rows, columns: stdout.columns, selection: o.selection }),
    undefined,
    ctx.now,
  );
  let said = nothingSaidOfBoard();
  const draw = () => {
    const step = boardLines(said, store.getSnapshot());
    said = step.said;
    if (step.lines.length) stdout.write(step.lines.join('\n') + '\n');
  };
  store.subscribe(draw);
  try {
    await plainUntilLeft(
      ctx,
      { title: "svc top: each session's state when listed and when it changes", hint: 'session states are written as they change' },
      (signal) => startFeed({ client: o.client, store, selectors: o.selectors, intervalMs: o.intervalMs, signal, sleep: ctx.sleep, now: ctx.now }),
    );
  } finally {
    store.close();
  }
}
