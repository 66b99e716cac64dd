import type { ApiClient } from '../api/client';
import { sessions } from '../api/sessions';
import { followBatches } from '../api/stream/resumable';
import { typeOf, type EventItem, type StreamItem } from '../api/stream/types';
import type { Ctx } from '../runtime/context';
import { InterruptedError, UsageError } from '../runtime/errors';
import { LineBatch } from '../output/ndjson-tail';
import type { TailOptions } from './options';
import { decides, outcomeOf, outcomeOfStatus, TurnErrors, type Outcome } from './outcome';
import { finishTurn } from './finish';
import { notice } from './notice';
import { startNow, type NowStart } from './start-now';
import { canonicalEvent } from '../wire/shapes';
import { CURSOR_NOW, type SessionEvent } from '../wire/events';

/**
 * The tail off the live view: one event per line (a YAML document with -o yaml, an ID with -o id), deltas only
 * when asked, control frames never. Without --jq each line is the
 * frame's data as received (no re-serialising), gathered per batch (one socket chunk) into large writes; an event
 * is parsed only when a decision needs it (`--until idle`: statuses and errors).
 */
export async function tailNdjson(ctx: Ctx, client: ApiClient, o: TailOptions): Promise<void> {
  const jq = ctx.settings.jq;
  const render = await lineRenderer(ctx, o);
  const out = new LineBatch(ctx.io.stdout);
  const start = o.untilIdle && o.cursor === CURSOR_NOW ? await startNow(client, o.sessionId, o.threadId) : undefined;
  // One thread's stream never carries session.status: the session is read until it settles (thread-settled.ts).
  const threadEnd = o.untilIdle && o.threadId !== undefined ? await untilThreadSettled(ctx, client, o, start) : undefined;
  const until = o.untilIdle && !threadEnd ? new UntilIdle(client, o, start) : undefined;
  // A stream opened at the history's cursor may repeat the newest event read with it ("de-duplicate by event id").
  let repeat = start && 'before' in start ? start.before : undefined;
  let ended: Outcome | undefined;
  let text = '';
  /** Writes the lines gathered so far; a promise only when stdout is full. */
  const put = (): Promise<void> | undefined => {
    if (text === '') return undefined;
    const full = out.lines(text);
    text = '';
    return full;
  };
  try {
    const signal = threadEnd ? threadEnd.signal : ctx.io.signal;
    reading: for await (const batch of followBatches({
      client,
      sessionId: o.sessionId,
      threadId: o.threadId,
      cursor: start?.cursor ?? o.cursor,
      deltas: o.deltas,
      signal,
      sleep: ctx.sleep,
    })) {
      for (const it of batch) {
        if (it.kind === 'connection') {
          await put();
          await notice(ctx, it.state);
          if (until && it.state.kind === 'live' && (ended = await until.live())) break reading;
          if (threadEnd && it.state.kind === 'live') threadEnd.live();
          continue;
        }
        if (repeat !== undefined && it.kind === 'event') {
          const again = it.event.id === repeat;
          repeat = undefined;
          if (again) continue;
        }
        if (jq) await ctx.out.item(it.kind === 'event' ? it.event : it.delta);
        else if (render) text += render(it);
        else text += it.raw + '\n';
        const decided = until && it.kind === 'event' ? until.event(it) : undefined;
        if (decided && (ended = await decided)) break reading;
        if (threadEnd && it.kind === 'event') threadEnd.saw(canonicalEvent(it.event));
      }
      const full = put();
      if (full) await full;
    }
  } finally {
    threadEnd?.stop();
    await put();
    await out.flush();
  }
  if (ctx.io.signal?.aborted) throw new InterruptedError();
  if (threadEnd) return threadEnd.finish();
  // Only `--until idle` ends the tail by itself: exit 0, or the code of the state the session settled in.
  if (until && ended?.settled) await finishTurn(client, until.errors, ended);
}

/**
 * How an item is written when not as received: a readable line (-o table), a YAML document (-o yaml) or the
 * event's ID (-o id, which deltas have none of). Undefined for the pass-through (ndjson; json is one object per line too, as a tail can only be).
 */
async function lineRenderer(ctx: Ctx, o: TailOptions): Promise<((it: Exclude<StreamItem, { kind: 'connection' }>) => string) | undefined> {
  const format = ctx.settings.jq === undefined ? ctx.settings.output?.value : undefined;
  if (format === 'table') {
    if (o.deltas) throw new UsageError('--deltas has no lines of its own with -o table: use -o ndjson');
    const { describeEvent, formatItem, threadNames } = await import('../live/items');
    const names = threadNames();
    // One readable line per event, as `svc demo` prints its transcript.
    return (it) => {
      if (it.kind !== 'event') return '';
      const e = it.event;
      names.see(e);
      const item = describeEvent(e, 0, names.of(e.session_thread_id));
      return `${item ? formatItem(item) : e.type}\n`;
    };
  }
  if (format === 'id') {
    if (o.deltas) throw new UsageError('--deltas has no IDs to print with -o id: use -o ndjson');
    return (it) => (it.kind === 'event' ? `${it.event.id}\n` : '');
  }
  if (format !== 'yaml') return undefined;
  const yaml = await (await import('../output/yaml')).loadYaml();
  return (it) => `---\n${yaml.stringify(it.kind === 'event' ? it.event : it.delta)}`;
}

/** `--until idle` on a thread's stream: the stream is stopped once the session has settled and the thread's last event is out. */
async function untilThreadSettled(ctx: Ctx, client: ApiClient, o: TailOptions, start: NowStart | undefined) {
  const { ThreadSettled } = await import('./thread-settled');
  const stop = new AbortController();
  const signal = ctx.io.signal ? AbortSignal.any([ctx.io.signal, stop.signal]) : stop.signal;
  const errors = new TurnErrors();
  let end: Outcome | undefined;
  let failure: unknown;
  const watch = new ThreadSettled({
    client,
    sessionId: o.sessionId,
    threadId: o.threadId!,
    cursor: o.cursor,
    start,
    signal,
    sleep: ctx.sleep,
    onEnd: (e) => {
      end = e.outcome;
      stop.abort();
    },
  });
  let started = false;
  return {
    signal,
    live: () => {
      if (started) return;
      started = true;
      watch.watch().catch((e: unknown) => {
        failure = e;
        stop.abort();
      });
    },
    saw: (e: SessionEvent) => {
      errors.see(e);
      watch.saw(e.id);
    },
    stop: () => stop.abort(),
    finish: async () => {
      if (failure) throw failure;
      if (end) await finishTurn(client, errors, end);
    },
  };
}

/**
 * `--until idle`. Once the stream is live the session is read, then its newest persisted event. A settled session
 * (idle or terminated) ends the tail when that event has been printed, so a replay prints the whole backlog first.
 * A running one ends at the first idle or terminated status from that event on, confirmed by a read (queued input
 * may already have started the next turn). With `--cursor now` the events before the start are never printed: when
 * the newest is one of them, a settled session ends the tail at once.
 */
class UntilIdle {
  readonly errors = new TurnErrors();
  private checked = false;
  /** The newest event printed (parsed only when live() needs its id). */
  private last?: EventItem;
  /** The newest event at the start, and what reaching it means. */
  private mark?: { id: string; type: string; settled?: Outcome };
  private counting = false;

  constructor(
    private readonly client: ApiClient,
    private readonly o: TailOptions,
    /** Where a `--cursor now` tail started. */
    private readonly now: NowStart | undefined,
  ) {}

  async live(): Promise<Outcome | undefined> {
    if (this.checked) return undefined;
    this.checked = true;
    const session = await sessions.get(this.client, this.o.sessionId);
    const start = outcomeOf(session);
    // Read after the session: a settled session has nothing newer, a running one may have ended just now.
    const newest = (await sessions.historyPage(this.client, this.o.sessionId, { page_size: 1, order: 'desc' }, this.o.threadId)).items[0];
    // With `--cursor now` the events before the start are never printed, so the newest of them is no mark.
    const before = !this.now ? undefined : 'before' in this.now ? this.now.before : newest?.id;
    if (newest && newest.id !== before && newest.id !== this.last?.event.id) {
      this.mark = { id: newest.id, type: newest.type, settled: start.settled ? start : undefined };
      return undefined;
    }
    if (start.settled) return start;
    this.counting = true;
    return undefined;
  }

  /**
   * Called for every printed event, so it parses only the events a decision reads: statuses and errors, and
   * events of the mark's type until the mark is reached. A promise only when the tail may end here.
   */
  event(it: EventItem): Promise<Outcome | undefined> | undefined {
    this.last = it;
    const type = typeOf(it);
    // The service's other spellings (session.status_idle …) are read as the spec's.
    const decision = decides(type) ? canonicalEvent(it.event) : undefined;
    if (decision) this.errors.see(decision);
    if (!this.counting) {
      if (!this.mark || type !== this.mark.type || it.event.id !== this.mark.id) return undefined;
      if (this.mark.settled) return Promise.resolve(this.mark.settled);
      this.counting = true;
    }
    if (!decision || !outcomeOfStatus(this.o.sessionId, decision)) return undefined;
    return sessions.get(this.client, this.o.sessionId).then((s) => {
      const now = outcomeOf(s);
      return now.settled ? now : undefined;
    });
  }
}
