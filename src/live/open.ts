import type { ApiClient } from '../api/client';
import type { Ctx } from '../context';
import type { StreamItem } from '../api/stream/types';
import type { InStream, OutStream } from '../io';
import type { TurnError } from '../turn/outcome';

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
}

export interface LiveViewResult {
  /** `quit`: the user left (q; Ctrl-C rejects with InterruptedError); `idle`, `error`, `terminated`: how the session ended (untilIdle). */
  reason: 'quit' | 'idle' | 'error' | 'terminated';
  /** With untilIdle: the text of the coordinator's last message of the turn, for `run` to print. */
  message?: string;
  /** With reason `error`: the turn's `session.error`, when the view saw one (its type names the recovery). */
  sessionError?: TurnError;
  /** With reason `idle`: the turn stopped unfinished (a stop_reason such as `refusal`), which exits 11 as without a terminal. */
  unfinished?: { failure: string; hint?: string };
}

/**
 * Events after which the header's session flags and pending-input count are read again (throttled, api-sink.ts):
 * another shell's interrupt or continue shows in them, as in the stream's control frames (each reconnect).
 */
const REFRESH_ON = new Set(['user.message', 'user.interrupt', 'session.status', 'session.updated']);
const SHOW_CURSOR = '\u001b[?25h';
/** Stream items reduced together at most. */
const BATCH_ITEMS = 256;

/**
 * Opens the Ink live view on the TTY and follows the session until the user leaves (q, Ctrl-C) or, with
 * `untilIdle`, until the turn ends (the caller passes a cursor from before its input so old turns are not
 * replayed). The session keeps running. The terminal is restored on every way out; a signal (ctx.io.signal)
 * or Ctrl-C typed in the view ends it with InterruptedError (exit 130). Ink and React load only here.
 */
export async function openLiveView(opts: LiveViewOptions): Promise<LiveViewResult> {
  const { ctx, sessionId } = opts;
  if (!opts.client) ctx.apiKey();
  const [
    [{ render }, { liveView }],
    { LiveStore },
    { initialState },
    { apiSink, pause },
    { follow },
    { TurnWatch },
    { InterruptedError },
    { canonicalEvent },
    { redrawOnResize, RecentLines },
  ] = await Promise.all([
    import('./load-ink').then((m) => m.loadInk()),
    import('./store'),
    import('./reducer'),
    import('./api-sink'),
    import('../api/stream/follow'),
    import('../turn/watch'),
    import('../errors'),
    import('../wire/shapes'),
    import('./resize'),
  ]);
  const { ThreadSettled } = opts.untilIdle && opts.threadId !== undefined ? await import('./thread-settled') : { ThreadSettled: undefined };
  const { stdin, stdout, stderr } = ctx.io;
  const store = new LiveStore(initialState(sessionId, { showDeltas: opts.deltas }), undefined, ctx.now);
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
    // Ctrl-C typed in the view is an interruption, as the signal would be: exit 130 (CLI.md).
    onAbort: () => finish({ error: new InterruptedError(), left: true }),
  });
  const abort = opts.abort?.signal ?? ctx.io.signal;
  const onSignal = () => finish({ error: opts.abort?.failure() ?? new InterruptedError(), left: true });
  if (abort?.aborted) onSignal();
  abort?.addEventListener('abort', onSignal, { once: true });
  const restore = () => restoreTerminal(stdin, stdout);
  process.once('exit', restore);

  const interactive = Boolean(stdin.isTTY && stdin.setRawMode);
  // Before render: its resize handler must run ahead of Ink's.
  const recent = new RecentLines();
  const unwatchResize = stdout.isTTY ? redrawOnResize(stdout, recent) : () => undefined;
  const view = liveView({ store, sink, interactive, color: ctx.useColor(stdout), onWrite: recent.add });
  const ink = render(view, {
    stdout: stdout as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stderr: stderr as NodeJS.WriteStream,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  ink.waitUntilExit().then(
    () => finish({ reason: 'quit' }),
    (error: unknown) => finish({ error }),
  );

  // The first frame is on the screen: now the client (and the stream after it).
  void (opts.client ? Promise.resolve(opts.client) : ctx.api()).then(connect, (error: unknown) => finish({ error }));
  sink.refresh();
  const watch = new TurnWatch(sessionId);
  // Items that arrive together are reduced together (one copy of the unwritten items per batch, not per event).
  // A batch is also cut at BATCH_ITEMS: a socket with a backlog is read for many chunks before setImmediate runs,
  // and whole parsed events held that long outlive young-generation collections (bench/live-memory.mjs).
  let arrived: Array<{ item: StreamItem; at: number }> = [];
  const reduceArrived = () => {
    if (!arrived.length) return;
    store.dispatch({ type: 'batch', items: arrived });
    arrived = [];
  };
  void (async () => {
    try {
      const api = await client;
      // A child thread's stream carries no session.status: with untilIdle the session is read until it settles.
      const threadEnd =
        ThreadSettled &&
        new ThreadSettled({
          client: api,
          sessionId,
          threadId: opts.threadId!,
          cursor: opts.cursor,
          signal: stop.signal,
          sleep: (ms) => pause(ms, stop.signal),
          // As on the session's stream, an idle that awaits a confirmation is not an end: the view can answer it.
          ends: ({ session }) => (session.stop_reason as { type?: string } | null)?.type !== 'requires_action',
          onEnd: ({ session, outcome }) =>
            finish({ reason: session.status === 'terminated' ? 'terminated' : outcome.settled && outcome.errorStop ? 'error' : 'idle' }),
        });
      let threadWatched = false;
      for await (const item of follow({ client: api, sessionId, threadId: opts.threadId, cursor: opts.cursor, deltas: true, signal: stop.signal })) {
        if (!arrived.length) setImmediate(reduceArrived);
        if (arrived.push({ item, at: ctx.now() }) >= BATCH_ITEMS) reduceArrived();
        if (item.kind === 'connection' && item.state.kind === 'live') {
          live();
          sink.refresh();
          if (threadEnd && !threadWatched) {
            threadWatched = true;
            threadEnd.watch().catch((error: unknown) => finish({ error }));
          }
        }
        if (item.kind !== 'event') continue;
        const event = canonicalEvent(item.event);
        if (REFRESH_ON.has(event.type)) sink.refresh();
        threadEnd?.saw(event.id);
        const end = opts.untilIdle ? watch.see(event) : undefined;
        if (end) finish({ reason: end });
      }
      if (!stop.signal.aborted) arrived.push({ item: { kind: 'connection', state: { kind: 'closed' } }, at: ctx.now() });
      reduceArrived();
    } catch (error) {
      if (!stop.signal.aborted) finish({ error });
    }
  })();

  try {
    outcome = await ended;
    if ('error' in outcome) throw outcome.error;
    return {
      reason: outcome.reason,
      ...(opts.untilIdle && watch.message !== undefined ? { message: watch.message } : {}),
      ...(outcome.reason === 'error' && watch.error ? { sessionError: watch.error } : {}),
      ...(outcome.reason === 'idle' && watch.unfinished ? { unfinished: watch.unfinished } : {}),
    };
  } finally {
    stop.abort();
    // The last frame stays on the screen: it says the stream is closed (not `live`, nor a reconnect that gave up).
    arrived.push({ item: { kind: 'connection', state: { kind: 'closed' } }, at: ctx.now() });
    // The last events are drawn before leaving: React commits a published state on a later tick, which an
    // unmount now would overtake, so the tree is rendered again synchronously first.
    reduceArrived();
    store.dispatch({ type: 'ended', text: endNote(outcome, opts.leaveNote) });
    store.publishNow();
    ink.rerender(view);
    store.close();
    ink.unmount();
    await ink.waitUntilExit().catch(() => undefined);
    unwatchResize();
    restore();
    process.removeListener('exit', restore);
    abort?.removeEventListener('abort', onSignal);
  }
}

/** How the view ended, or an error: `left` when the user or the deadline ended it (the session is untouched). */
type Outcome = { reason: LiveViewResult['reason'] } | { error: unknown; left?: boolean };

const LEFT = 'left the view; the session keeps running';

/** The last frame's footer: how the view ended, instead of keys that no longer work. */
function endNote(o: Outcome | undefined, leaveNote = LEFT): string {
  if (!o || 'error' in o) return o?.left ? leaveNote : 'left the view';
  switch (o.reason) {
    case 'quit':
      return leaveNote;
    case 'idle':
      return 'the turn ended; the session is idle';
    case 'error':
      return 'the turn ended in session.error';
    case 'terminated':
      return 'the session was terminated';
  }
}

/** Raw mode off and the cursor shown, whatever Ink managed to do on its way out. */
function restoreTerminal(stdin: InStream, stdout: OutStream): void {
  if (stdin.isTTY && stdin.setRawMode) stdin.setRawMode(false);
  if (stdout.isTTY) stdout.write(SHOW_CURSOR);
}

/** A promise and the function that settles it. */
function settable<T>(): [Promise<T>, (value: T) => void] {
  let settle!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (settle = resolve));
  return [promise, settle];
}
