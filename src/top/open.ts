/**
 * Opens the board full-screen and runs it until the user quits: the feed fills the store, the board draws it, Enter
 * puts a session's live view in its place until that view's `q`, and the board comes back with its state. The
 * terminal is restored on every way out (alternate screen left, raw mode off, cursor shown). Ink loads only here.
 */
import type { ApiClient } from '../api/client';
import type { Ctx } from '../runtime/context';
import type { SessionSelectors } from '../selection/selectors';
import type { Notice } from './state';
import type { WriteAction } from './sink';

/** The writes the board makes, given by the command (the bulk executor lives above this layer). */
export interface BoardWrites {
  act(action: WriteAction, ids: readonly string[]): Promise<{ ok: readonly string[]; gone: readonly string[]; notice: Notice }>;
  answer(sessionId: string, result: 'allow' | 'deny'): Promise<Notice>;
}

export interface BoardOptions {
  ctx: Ctx;
  client: ApiClient;
  writes: BoardWrites;
  selectors: SessionSelectors;
  /** The selectors as typed, for the header. */
  selection?: string;
  environment?: string;
  /** The environment's ID, resolved before the board opened. */
  environmentId?: string;
  intervalMs: number;
  readonly: boolean;
}

/** The live view's last footer when it hands back to the board. */
const BACK = 'back to the board';

export async function openBoard(o: BoardOptions): Promise<void> {
  const { ctx } = o;
  // Accessible mode: appended lines of each session's state, no screen to redraw (Ink never loads).
  if (ctx.settings.accessible) return (await import('./plain')).openPlainBoard(o);
  const { stdin, stdout } = ctx.io;
  const tty = stdout as typeof stdout & NodeJS.EventEmitter & { rows?: number };
  // Ink first, through the live view's loader (it must be evaluated with the CI variables hidden), then what uses it.
  await (await import('../live/load-ink')).loadInk();
  const [{ runFullScreen }, { boardView }, { BoardStore }, { initialState }, { startFeed }, { dropTypeahead, droppedText }] = await Promise.all([
    import('../live/full-screen'),
    import('./components/Board'),
    import('./store'),
    import('./state'),
    import('./feed'),
    import('../live/typeahead'),
  ]);
  const store = new BoardStore(
    initialState({
      readonly: o.readonly,
      rows: tty.rows,
      columns: stdout.columns,
      environment: o.environment,
      environmentId: o.environmentId,
      selection: o.selection,
    }),
    undefined,
    ctx.now,
  );
  const stop = new AbortController();
  const onResize = () => store.dispatch({ type: 'resize', rows: tty.rows ?? 24, columns: stdout.columns ?? 80 });
  tty.on?.('resize', onResize);
  const feed = startFeed({ client: o.client, store, selectors: o.selectors, intervalMs: o.intervalMs, signal: stop.signal, sleep: ctx.sleep, now: ctx.now });

  const act = (action: WriteAction, ids: readonly string[]) => {
    if (!ids.length) return;
    store.dispatch({ type: 'busy', ids, text: `${action === 'continue' ? 'continuing' : `${action.replace(/e$/, '')}ing`}…` });
    void o.writes.act(action, ids).then(
      (r) => {
        store.dispatch({ type: 'done', ids, ok: r.ok, notice: r.notice });
        if (r.gone.length) store.dispatch({ type: 'sessions.remove', ids: r.gone });
        feed.poke();
      },
      (e: unknown) => store.dispatch({ type: 'done', ids, ok: [], notice: { text: `${action} failed: ${(e as Error).message}`, level: 'error' } }),
    );
  };
  const answer = (id: string, result: 'allow' | 'deny') => {
    store.dispatch({ type: 'busy', ids: [id], text: result === 'allow' ? 'allowing…' : 'denying…' });
    void o.writes.answer(id, result).then(
      (notice) => {
        store.dispatch({ type: 'done', ids: [id], ok: [id], notice });
        feed.poke();
      },
      (e: unknown) => store.dispatch({ type: 'done', ids: [id], ok: [], notice: { text: `${result} failed: ${(e as Error).message}`, level: 'error' } }),
    );
  };

  try {
    await runFullScreen({
      ctx,
      client: o.client,
      readonly: o.readonly,
      leaveNote: BACK,
      // Keys typed before the board is drawn (or while a live view handed back) are dropped unread, and the footer says so.
      beforeShow: async (interactive) => {
        const dropped = interactive ? await dropTypeahead(stdin) : 0;
        if (dropped) store.dispatch({ type: 'notice', notice: { text: droppedText(dropped), level: 'info' } });
        store.publishNow();
      },
      view: (nav, interactive) => boardView({ store, sink: { act, answer, ...nav }, interactive }),
    });
  } finally {
    stop.abort();
    store.close();
    tty.off?.('resize', onResize);
  }
}
