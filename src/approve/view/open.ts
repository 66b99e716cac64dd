/**
 * Opens the queue full-screen and runs it until the user quits (as svc top's board: src/top/open.ts): the feed fills
 * the store, the queue draws it, Enter puts a session's live view in its place until that view's `q`. In accessible
 * mode the queue is plain appended lines (each call when it starts and stops waiting) and only shows.
 */
import type { ApiClient } from '../../api/client';
import type { Ctx } from '../../context';
import { stoppedByTerm } from '../../io';
import { escapeLineControls } from '../../output/controls';
import { confirm } from '../answer';
import type { SessionSelectors } from '../selection';
import { QueueReader, startQueueFeed } from '../feed';
import { initialQueue, ordered } from '../queue';
import type { QueueSink } from './input';
import { QueueStore } from './store';

export interface QueueViewOptions {
  ctx: Ctx;
  client: ApiClient;
  selectors: SessionSelectors;
  intervalMs: number;
  readonly: boolean;
}

const ALT_SCREEN_ON = '\u001b[?1049h';
const ALT_SCREEN_OFF = '\u001b[?1049l';
const CLEAR = '\u001b[2J\u001b[H';
const SHOW_CURSOR = '\u001b[?25h';

type Next = { kind: 'quit' } | { kind: 'abort' } | { kind: 'open'; id: string } | { kind: 'error'; error: unknown };

export async function openQueue(o: QueueViewOptions): Promise<void> {
  const { ctx } = o;
  if (ctx.settings.accessible) return openPlainQueue(o);
  const { stdin, stdout, stderr } = ctx.io;
  const [ink] = await (await import('../../live/load-ink')).loadInk();
  const [{ queueView }, { InterruptedError }, { settable }] = await Promise.all([import('./Queue'), import('../../errors'), import('../../live/outcome')]);
  const store = new QueueStore(initialQueue({ readonly: o.readonly }), undefined, ctx.now);
  const interactive = Boolean(stdin.isTTY && stdin.setRawMode);
  const stop = new AbortController();
  const restore = () => {
    if (stdin.isTTY && stdin.setRawMode) stdin.setRawMode(false);
    stdout.write(ALT_SCREEN_OFF + SHOW_CURSOR);
  };
  process.once('exit', restore);
  stdout.write(ALT_SCREEN_ON + CLEAR);
  const feed = startQueueFeed({
    reader: new QueueReader(o.client, o.selectors),
    dispatch: (a) => store.dispatch(a),
    intervalMs: o.intervalMs,
    signal: stop.signal,
    now: ctx.now,
    sleep: ctx.sleep,
  });

  const answer: QueueSink['answer'] = (sessionId, eventId, key, result, message) => {
    if (o.readonly) return;
    store.dispatch({ type: 'busy', key, text: result === 'allow' ? 'allowing…' : 'denying…' });
    void confirm(o.client, sessionId, eventId, result, message).then(
      (sent) => {
        const text = sent === 'answered' ? `${result === 'allow' ? 'allowed' : 'denied'} in ${sessionId}` : `answered elsewhere first: ${sessionId}`;
        store.dispatch({ type: 'answered', key, gone: true, notice: { text, level: 'info' } });
        feed.poke();
      },
      (e: unknown) =>
        store.dispatch({ type: 'answered', key, gone: false, notice: { text: `${result} failed for ${sessionId}: ${(e as Error).message}`, level: 'error' } }),
    );
  };

  const showQueue = async (): Promise<Next> => {
    const [next, settle] = settable<Next>();
    if (ctx.io.signal?.aborted) return { kind: 'abort' };
    const onSignal = () => settle({ kind: 'abort' });
    ctx.io.signal?.addEventListener('abort', onSignal, { once: true });
    const sink: QueueSink = {
      answer,
      open: (id) => settle({ kind: 'open', id }),
      quit: () => settle({ kind: 'quit' }),
      abort: () => settle({ kind: 'abort' }),
    };
    store.publishNow();
    const view = ink.render(queueView({ store, sink, interactive }), {
      stdout: stdout as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stderr: stderr as NodeJS.WriteStream,
      exitOnCtrlC: false,
      patchConsole: false,
    });
    view.waitUntilExit().then(
      () => settle({ kind: 'quit' }),
      (error: unknown) => settle({ kind: 'error', error }),
    );
    try {
      return await next;
    } finally {
      ctx.io.signal?.removeEventListener('abort', onSignal);
      view.unmount();
      await view.waitUntilExit().catch(() => undefined);
    }
  };

  try {
    for (;;) {
      const next = await showQueue();
      if (next.kind === 'quit') return;
      if (next.kind === 'abort') {
        if (stoppedByTerm(ctx.io.signal)) return;
        throw new InterruptedError();
      }
      if (next.kind === 'error') throw next.error;
      stdout.write(CLEAR);
      const { openLiveView } = await import('../../live/open');
      try {
        await openLiveView({ ctx, client: o.client, sessionId: next.id, deltas: true, leaveNote: 'back to the queue', readonly: o.readonly });
      } catch (e) {
        if (stoppedByTerm(ctx.io.signal)) return;
        throw e;
      }
      stdout.write(CLEAR);
    }
  } finally {
    stop.abort();
    store.close();
    restore();
    process.removeListener('exit', restore);
  }
}

/** Accessible mode: a line when a call starts waiting and when it stops; `q` and Enter leaves. */
async function openPlainQueue(o: QueueViewOptions): Promise<void> {
  const { ctx } = o;
  const { stdin, stdout } = ctx.io;
  const [{ InterruptedError }, { settable }, { createInterface }] = await Promise.all([
    import('../../errors'),
    import('../../live/outcome'),
    import('node:readline'),
  ]);
  const store = new QueueStore(initialQueue({ readonly: true }), 0, ctx.now);
  const [left, leave] = settable<'quit' | 'abort'>();
  let said = new Map<string, string>();
  store.subscribe(() => {
    const items = ordered(store.getSnapshot());
    const now = new Map(items.map((i) => [i.key, `${i.tool} in ${i.title ?? i.sessionId} (agent ${i.agent}, event ${i.eventId})`]));
    const lines = [...now].filter(([k]) => !said.has(k)).map(([, t]) => `awaits a confirmation: ${t}`);
    for (const [k, t] of said) if (!now.has(k)) lines.push(`no longer awaited: ${t}`);
    said = now;
    if (lines.length) stdout.write(lines.map(escapeLineControls).join('\n') + '\n');
  });
  const onSignal = () => leave('abort');
  ctx.io.signal?.addEventListener('abort', onSignal, { once: true });
  if (ctx.io.signal?.aborted) onSignal();
  const rl = stdin.isTTY ? createInterface({ input: stdin as unknown as NodeJS.ReadableStream, terminal: false }) : undefined;
  rl?.on('line', (line) => {
    if (line.trim().toLowerCase() === 'q') leave('quit');
    else if (line.trim()) stdout.write('type q and Enter to quit; answer with svc sessions confirm SESSION EVENT --allow|--deny\n');
  });
  stdout.write(`svc approve: each awaited confirmation when it starts and stops waiting${rl ? '; type q and Enter to quit' : ''}\n`);
  const stop = new AbortController();
  startQueueFeed({
    reader: new QueueReader(o.client, o.selectors),
    dispatch: (a) => store.dispatch(a),
    intervalMs: o.intervalMs,
    signal: stop.signal,
    now: ctx.now,
    sleep: ctx.sleep,
  });
  try {
    if ((await left) === 'abort' && !stoppedByTerm(ctx.io.signal)) throw new InterruptedError();
  } finally {
    stop.abort();
    store.close();
    rl?.close();
    ctx.io.signal?.removeEventListener('abort', onSignal);
  }
}
