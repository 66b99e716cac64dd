/** Following one turn of a session to its end without a view: what `run` does off a terminal (or with an explicit -o). */
import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../api/client';
import { sessions } from '../api/sessions';
import { follow } from '../api/stream/resumable';
import { typeOf, type StreamItem } from '../api/stream/types';
import type { Ctx } from '../runtime/context';
import { LineBatch } from '../output/ndjson-tail';
import type { SessionEvent } from '../wire/events';
import { decides, outcomeOfStatus, textOfMessage, TurnErrors, withPending, type Settled } from './outcome';
import { waitSignal } from './deadline';
import { finishTurn } from './finish';
import { notice } from './notice';

export interface TurnOptions {
  sessionId: string;
  /** The body of the events POST that starts the turn. */
  body: { events: unknown[] };
  timeoutMs?: number;
  /** When `timeoutMs` began to run (the command's start, `Date.now()`); undefined: as the follow begins. */
  timeoutSince?: number;
  /** Every event as a line on stdout as it arrives: `raw` as received (-o ndjson), `each` through the writer (--jq). */
  lines?: 'raw' | 'each';
  /** With `lines`: agent.delta lines too. */
  deltas?: boolean;
  /** Runs as the message is sent: from here the turn may be running (`run --interrupt-on-exit` then stops it on a signal). */
  sending?: () => void;
  /** Runs once the message is accepted, before the turn is followed (`run --continue` resumes the session here). */
  afterSend?: () => Promise<void>;
}

/** How the turn ended, when it ended well: the coordinator's last message (text and event). */
export interface TurnResult {
  text?: string;
  message?: SessionEvent;
}

/**
 * Subscribes before it sends (the stream's control frame first, then the POST), so no event of the turn is missed.
 * The turn is ours from our `user.message` (its id is the accepted event_id) to the idle status after it; an interrupt
 * before it started holds it, which ends the follow too. Thrown: exit 11, 12 or 13 by the state the session settled
 * in (TurnErrors.verdict); 124 or 130 when the deadline or Ctrl-C ended it.
 */
export async function followTurn(ctx: Ctx, client: ApiClient, o: TurnOptions): Promise<TurnResult> {
  const out = new LineBatch(ctx.io.stdout);
  const w = waitSignal(ctx, o.timeoutMs, `session ${o.sessionId} did not finish the turn`, o.timeoutSince);
  const deltas = o.lines !== undefined && o.deltas === true;
  const items = follow({ client, sessionId: o.sessionId, cursor: 'now', deltas, signal: w.signal, sleep: ctx.sleep })[Symbol.asyncIterator]();
  const turn = new Turn(o.sessionId);
  try {
    let r: IteratorResult<StreamItem>;
    while (!(r = await items.next()).done && !(r.value.kind === 'connection' && r.value.state.kind === 'live')) {
      if (r.value.kind === 'connection') await notice(ctx, r.value.state);
    }
    if (r.done) throw w.failure() ?? new Error('the event stream closed before it opened');
    o.sending?.();
    turn.eventId = (await sessions.sendEvents(client, o.sessionId, o.body, randomUUID())).event_id;
    await o.afterSend?.();
    while (!(r = await items.next()).done) {
      const it = r.value;
      if (it.kind === 'connection') {
        await notice(ctx, it.state);
        continue;
      }
      if (o.lines === 'raw') {
        const full = out.line(it.raw);
        if (full) await full;
      } else if (o.lines === 'each') await ctx.out.item(it.kind === 'event' ? it.event : it.delta);
      // Raw lines are written as received: only the events the turn's end depends on are parsed.
      if (it.kind === 'event' && (o.lines !== 'raw' || endsTurn(typeOf(it))) && turn.see(it.event)) break;
    }
  } finally {
    w.dispose();
    await items.return?.();
    await out.flush();
  }
  if (!turn.end) throw w.failure() ?? new Error('the event stream ended before the turn did');
  await finishTurn(client, turn.errors, turn.end);
  return { text: turn.text, message: turn.message };
}

/** The events a turn's end depends on (Turn.see). */
const endsTurn = (type: string): boolean => type === 'user.message' || decides(type);

/** Our turn as the stream shows it: its start, the coordinator's last message, and how it ended. */
class Turn {
  eventId?: string;
  text?: string;
  message?: SessionEvent;
  end?: Settled;
  private started = false;
  readonly errors = new TurnErrors();

  constructor(private readonly sessionId: string) {}

  /** True when the turn is over. */
  see(e: SessionEvent): boolean {
    if (!this.started) {
      // Without an event_id (no input queue) the first message after sending is ours.
      const ours = e.type === 'user.message' && (this.eventId === undefined || e.id === this.eventId);
      const settled = ours ? undefined : outcomeOfStatus(this.sessionId, e);
      // Interrupted before our message ran: it waits behind the interrupt until a Continue, so the follow ends here.
      if (settled?.state.label === 'interrupted') this.end = withPending(settled, 1);
      // A session terminated before our message ran ends the wait too.
      if (!ours && settled?.state.label !== 'terminated' && settled?.state.label !== 'archived') return this.end !== undefined;
      this.started = true;
    }
    this.errors.see(e);
    if (e.type === 'agent.message' && e.session_thread_id === undefined) {
      this.message = e;
      this.text = textOfMessage(e.data?.content);
    }
    this.end ??= outcomeOfStatus(this.sessionId, e);
    return this.end !== undefined;
  }
}
