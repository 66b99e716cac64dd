import type { ApiClient } from '../api/client';
import type { Ctx } from '../runtime/context';
import type { MountedView } from './mount';
import type { LiveViewResult, Outcome } from './outcome';
import type { ActionSink } from './sink';
import type { LiveStore } from './store';

export type { LiveViewResult } from './outcome';

export interface LiveViewOptions {
  ctx: Ctx;
  /** Omitted: `ctx.api()`, loaded after the first frame is drawn (the HTTP client is a third of the start-up). */
  client?: ApiClient;
  sessionId: string;
  threadId?: string;
  /** As FollowOptions.cursor. */
  cursor?: string;
  /** Show delta previews from the start (`d` toggles). */
  deltas: boolean;
  /** Leave the view by itself when the session goes idle (`run`). */
  untilIdle?: boolean;
  /** Ends the view with `failure()` when it aborts (`run --timeout`); default: ctx.io.signal, as InterruptedError. */
  abort?: { signal: AbortSignal; failure: () => Error | undefined };
  /** The last frame's footer when the user leaves (q, Ctrl-C); default: the session keeps running. */
  leaveNote?: string;
  /** Only show (`svc top --readonly`): no key interrupts, continues, sends or answers, and the footer offers none. */
  readonly?: boolean;
}

/**
 * Opens the Ink live view on the TTY and follows the session until the user leaves (q, Ctrl-C) or, with
 * `untilIdle`, until the turn ends (the caller passes a cursor from before its input so old turns are not
 * replayed). An outage does not end it: the stream reconnects until the user leaves. The session keeps running.
 * The terminal is restored on every way out; a signal (ctx.io.signal) or Ctrl-C typed in the view ends it with
 * InterruptedError (exit 130). Ink and React load only here.
 */
export async function openLiveView(opts: LiveViewOptions): Promise<LiveViewResult> {
  const { ctx, sessionId } = opts;
  if (!opts.client) ctx.apiKey();
  const [mount, { pump }, { LiveStore }, { initialState }, { apiSink }, { InterruptedError }, { endNote, resultOf, settable }] = await Promise.all([
    loadMount(ctx.settings.accessible),
    import('./pump'),
    import('./store'),
    import('./reducer'),
    import('./api-sink'),
    import('../runtime/errors'),
    import('./outcome'),
  ]);
  const store = new LiveStore(initialState(sessionId, { showDeltas: opts.deltas && !ctx.settings.accessible, readonly: opts.readonly }), undefined, ctx.now);
  const stop = new AbortController();
  const [ended, finish] = settable<Outcome>();
  let outcome: Outcome | undefined;
  // The client arrives after the first frame; `streaming` settles when the stream is first live.
  const [client, connect] = settable<ApiClient>();
  const [streaming, live] = settable<void>();
  const sink = apiSink({
    client,
    streaming,
    sessionId,
    store,
    signal: stop.signal,
    now: ctx.now,
    onQuit: () => finish({ reason: 'quit' }),
    // Ctrl-C typed in the view is an interruption, as the signal would be: exit 130 (docs/behaviour.md).
    onAbort: () => finish({ error: new InterruptedError(), left: true }),
  });
  const abort = opts.abort?.signal ?? ctx.io.signal;
  const onSignal = () => finish({ error: opts.abort?.failure() ?? new InterruptedError(), left: true });
  if (abort?.aborted) onSignal();
  abort?.addEventListener('abort', onSignal, { once: true });

  const view = await mount({ ctx, store, sink });
  view.exited.then(
    () => finish({ reason: 'quit' }),
    (error: unknown) => finish({ error }),
  );
  // The first frame is on the screen: now the client (and the stream after it).
  void (opts.client ? Promise.resolve(opts.client) : ctx.api()).then(connect, (error: unknown) => finish({ error }));
  sink.refresh();
  const { watch, drain } = pump({
    ctx,
    client,
    sessionId,
    threadId: opts.threadId,
    cursor: opts.cursor,
    untilIdle: opts.untilIdle,
    store,
    sink,
    signal: stop.signal,
    onLive: () => {
      live();
      sink.refresh();
    },
    finish,
  });

  try {
    outcome = await ended;
    return resultOf(outcome, watch, Boolean(opts.untilIdle));
  } finally {
    stop.abort();
    // The last frame stays on the screen: it says the stream is closed (not `live`, nor a reconnect in progress).
    drain({ kind: 'connection', state: { kind: 'closed' } });
    store.dispatch({ type: 'ended', text: endNote(outcome, opts.leaveNote) });
    await view.unmount();
    abort?.removeEventListener('abort', onSignal);
  }
}

type Mount = (o: { ctx: Ctx; store: LiveStore; sink: ActionSink }) => Promise<MountedView>;

/** Accessible mode's plain lines (Ink and React never load), else the Ink view. */
async function loadMount(accessible: boolean): Promise<Mount> {
  if (accessible) return (await import('./plain')).mountPlainView;
  const [ink, { mountView }] = await Promise.all([import('./load-ink').then((m) => m.loadInk()), import('./mount')]);
  return (o) => mountView({ ...o, ink });
}
