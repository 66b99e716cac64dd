/**
 * Opens the queue full-screen and runs it until the user quits (as svc top's board: src/top/open.ts): the feed fills
 * the store, the queue draws it, Enter puts a session's live view in its place until that view's `q`. In accessible
 * mode the queue is plain appended lines (each call when it starts and stops waiting) and only shows.
 */
import type { ApiClient } from '../../api/client';
import type { Ctx } from '../../runtime/context';
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

export async function openQueue(o: QueueViewOptions): Promise<void> {
  const { ctx } = o;
  if (ctx.settings.accessible) return openPlainQueue(o);
  // Ink first, through the live view's loader (it must be evaluated with the CI variables hidden), then what uses it.
  await (await import('../../live/load-ink')).loadInk();
  const [{ runFullScreen }, { queueView }] = await Promise.all([import('../../live/full-screen'), import('./Queue')]);
  const store = new QueueStore(initialQueue({ readonly: o.readonly }), undefined, ctx.now);
  const stop = new AbortController();
  const feed = feedInto(o, store, stop.signal);
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
  try {
    await runFullScreen({
      ctx,
      client: o.client,
      readonly: o.readonly,
      leaveNote: 'back to the queue',
      beforeShow: async () => store.publishNow(),
      view: (nav, interactive) => queueView({ store, sink: { answer, ...nav }, interactive }),
    });
  } finally {
    stop.abort();
    store.close();
  }
}

/** Accessible mode: a line when a call starts waiting and when it stops; `q` and Enter leaves. */
async function openPlainQueue(o: QueueViewOptions): Promise<void> {
  const { ctx } = o;
  const { stdout } = ctx.io;
  const { plainUntilLeft } = await import('../../live/plain-until-left');
  const store = new QueueStore(initialQueue({ readonly: true }), 0, ctx.now);
  let said = new Map<string, string>();
  store.subscribe(() => {
    const items = ordered(store.getSnapshot());
    const now = new Map(items.map((i) => [i.key, `${i.tool} in ${i.title ?? i.sessionId} (agent ${i.agent}, event ${i.eventId})`]));
    const lines = [...now].filter(([k]) => !said.has(k)).map(([, t]) => `awaits a confirmation: ${t}`);
    for (const [k, t] of said) if (!now.has(k)) lines.push(`no longer awaited: ${t}`);
    said = now;
    if (lines.length) stdout.write(lines.map(escapeLineControls).join('\n') + '\n');
  });
  try {
    await plainUntilLeft(
      ctx,
      {
        title: 'svc approve: each awaited confirmation when it starts and stops waiting',
        hint: 'answer with svc sessions confirm SESSION EVENT --allow|--deny',
      },
      (signal) => void feedInto(o, store, signal),
    );
  } finally {
    store.close();
  }
}

/** The queue's feed, filling `store` until `signal` ends. */
function feedInto(o: QueueViewOptions, store: QueueStore, signal: AbortSignal) {
  const { ctx } = o;
  const reader = new QueueReader(o.client, o.selectors);
  return startQueueFeed({ reader, dispatch: (a) => store.dispatch(a), intervalMs: o.intervalMs, signal, now: ctx.now, sleep: ctx.sleep });
}
