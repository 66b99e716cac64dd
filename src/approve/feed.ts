/**
 * What the terminal queue shows, read from the service: the selected sessions that wait on a human, and for each the
 * awaited tool confirmations (`stop_reason.event_ids`, found in its newest history). Read again every interval.
 */
import type { ApiClient } from '../api/client';
import { agents, type Obj } from '../api/resources';
import { awaitedEvents } from '../listen/readers';
import { sleep as pause } from '../async/sleep';
import { canonicalEvent } from '../wire/shapes';
import { askedOf } from './facts';
import { itemKey, type Action, type QueueItem } from './queue';
import { waitingSessions, type SessionSelectors } from './selection';

/** Histories read at once. */
const CONCURRENCY = 8;

export class QueueReader {
  private readonly names = new Map<string, Promise<string>>();
  constructor(
    private readonly client: ApiClient,
    private readonly selectors: SessionSelectors,
  ) {}

  /** Every awaited confirmation of the selected sessions now, oldest first. */
  async read(now: number, signal?: AbortSignal): Promise<QueueItem[]> {
    const waiting: Obj[] = [];
    for await (const s of waitingSessions(this.client, this.selectors, now)) waiting.push(s);
    const items: QueueItem[] = [];
    const work = [...waiting];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let s = work.shift(); s; s = work.shift()) items.push(...(await this.itemsOf(s, signal)));
      }),
    );
    return items.sort((a, b) => a.askedAt - b.askedAt);
  }

  private async itemsOf(s: Obj, signal?: AbortSignal): Promise<QueueItem[]> {
    const ids = (s.stop_reason as { event_ids?: unknown } | null | undefined)?.event_ids;
    if (!Array.isArray(ids) || !ids.length) return [];
    const sid = String(s.id);
    const agent = await this.agentName(typeof s.agent_id === 'string' ? s.agent_id : '');
    const events = await awaitedEvents(this.client, sid, ids.map(String), signal ?? new AbortController().signal);
    return events.flatMap((raw) => {
      const a = askedOf(canonicalEvent(raw));
      if (!a) return [];
      const at = Date.parse(a.processedAt ?? '');
      return [
        {
          key: itemKey(sid, a.eventId),
          sessionId: sid,
          ...(typeof s.title === 'string' && s.title ? { title: s.title } : {}),
          agent,
          eventId: a.eventId,
          tool: a.tool,
          input: a.input,
          ...(a.threadId !== undefined ? { threadId: a.threadId } : {}),
          askedAt: Number.isNaN(at) ? 0 : at,
        },
      ];
    });
  }

  private agentName(id: string): Promise<string> {
    if (!id) return Promise.resolve('');
    let p = this.names.get(id);
    if (!p) {
      p = agents.get(this.client, id).then(
        (a) => (typeof a.name === 'string' ? a.name : id),
        () => id,
      );
      this.names.set(id, p);
    }
    return p;
  }
}

/** Reads the queue every `intervalMs` (and at once when poked) until `signal` ends, dispatching each snapshot. */
export function startQueueFeed(o: {
  reader: QueueReader;
  dispatch: (a: Action) => void;
  intervalMs: number;
  signal: AbortSignal;
  now: () => number;
  sleep?: (ms: number) => Promise<void>;
}): { poke: () => void; done: Promise<void> } {
  let poked: (() => void) | undefined;
  const done = (async () => {
    while (!o.signal.aborted) {
      try {
        o.dispatch({ type: 'snapshot', items: await o.reader.read(o.now(), o.signal) });
      } catch (e) {
        if (o.signal.aborted) return;
        o.dispatch({ type: 'feedError', message: (e as Error).message });
      }
      const nap = new AbortController();
      poked = () => nap.abort();
      await pause(o.intervalMs, AbortSignal.any([o.signal, nap.signal]), o.sleep);
    }
  })();
  return { poke: () => poked?.(), done };
}
