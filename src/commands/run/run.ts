import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../../api/client';
import { sessions } from '../../api/sessions';
import { follow } from '../../api/stream/follow';
import { typeOf, type StreamItem } from '../../api/stream/types';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { fileText, stdinText } from '../../input/read';
import { write } from '../../io';
import { LineBatch } from '../../output/ndjson-tail';
import type { SessionEvent } from '../../wire/events';
import { waitSignal } from './deadline';
import { outcomeOfStatus, textOfMessage, TurnErrors, viewEnd, type Outcome } from '../../turn/outcome';
import { decides, notice } from './tail-ndjson';

type MessageBody = { events: unknown[] };

export interface RunOptions {
  agent?: string;
  environment?: string;
  session?: string;
  message?: string;
  messageFile?: string;
  /** `-`: the message comes from standard input. */
  stdin?: string;
  timeoutMs?: number;
  deltas: boolean;
  noLive: boolean;
  createKey: string;
}

export async function runRun(ctx: Ctx, o: RunOptions): Promise<void> {
  if (!o.agent && !o.session) throw new UsageError('--agent is required (or --session to reuse a session)');
  const text = await messageText(ctx, o);
  const client = await ctx.api();
  const sessionId = o.session ?? (await createSession(ctx, client, o));
  const body = { events: [{ type: 'user.message', data: { content: [{ type: 'text', text }] } }] };
  // `-o ndjson` asks for every event as a line, even on a terminal.
  if (ctx.io.stdout.isTTY && !o.noLive && ctx.format !== 'ndjson') return runLive(ctx, client, sessionId, body, o);
  await runFollow(ctx, client, sessionId, body, o);
}

async function messageText(ctx: Ctx, o: RunOptions): Promise<string> {
  if (o.stdin !== undefined && o.stdin !== '-') throw new UsageError(`unexpected argument "${o.stdin}": only - (standard input) is accepted`);
  const given = [o.message !== undefined, o.messageFile !== undefined, o.stdin === '-'].filter(Boolean).length;
  if (given !== 1) throw new UsageError('give the message once: --message T, --message-file F, or - for standard input');
  if (o.message !== undefined) return o.message;
  if (o.messageFile !== undefined) return fileText(ctx.io, o.messageFile);
  return stdinText(ctx.io);
}

async function createSession(ctx: Ctx, client: ApiClient, o: RunOptions): Promise<string> {
  const s = await sessions.create(client, { agent_id: o.agent, ...(o.environment ? { environment_id: o.environment } : {}) }, o.createKey);
  await ctx.msg(`session ${s.id}`);
  return s.id as string;
}

/**
 * Subscribes before it sends (the stream's control frame first, then the POST), so no event of the turn is missed.
 * The turn is ours from our `user.message` (its id is the accepted event_id) to the idle status after it.
 */
async function runFollow(ctx: Ctx, client: ApiClient, sessionId: string, body: MessageBody, o: RunOptions): Promise<void> {
  const ndjson = ctx.format === 'ndjson';
  const out = new LineBatch(ctx.io.stdout);
  const w = waitSignal(ctx, o.timeoutMs, `session ${sessionId} did not finish the turn`);
  const items = follow({ client, sessionId, cursor: 'now', deltas: ndjson && o.deltas, signal: w.signal, sleep: ctx.sleep })[Symbol.asyncIterator]();
  const turn = new Turn(sessionId);
  try {
    let r: IteratorResult<StreamItem>;
    while (!(r = await items.next()).done && !(r.value.kind === 'connection' && r.value.state.kind === 'live')) {
      if (r.value.kind === 'connection') await notice(ctx, r.value.state);
    }
    if (r.done) throw w.failure() ?? new Error('the event stream closed before it opened');
    turn.eventId = (await sessions.sendEvents(client, sessionId, body, randomUUID())).event_id;
    while (!(r = await items.next()).done) {
      const it = r.value;
      if (it.kind === 'connection') {
        await notice(ctx, it.state);
        continue;
      }
      if (ndjson) {
        const full = out.line(it.raw);
        if (full) await full;
      }
      if (it.kind === 'event' && (!ndjson || endsTurn(typeOf(it))) && turn.see(it.event)) break;
    }
  } finally {
    w.dispose();
    await items.return?.();
    await out.flush();
  }
  if (!turn.ended) throw w.failure() ?? new Error('the event stream ended before the turn did');
  turn.finish();
  if (!ndjson && turn.text !== undefined) await write(ctx.io.stdout, turn.text.endsWith('\n') ? turn.text : turn.text + '\n');
}

/**
 * On a terminal: the live view, started from a cursor read before sending, so it too misses nothing; once it
 * closes at idle, the final message is printed as without a terminal.
 */
async function runLive(ctx: Ctx, client: ApiClient, sessionId: string, body: MessageBody, o: RunOptions): Promise<void> {
  const page = await sessions.historyPage(client, sessionId, { page_size: 1, order: 'desc' });
  await sessions.sendEvents(client, sessionId, body, randomUUID());
  const { openLiveView } = await import('../../live/open');
  const w = waitSignal(ctx, o.timeoutMs, `session ${sessionId} did not finish the turn`);
  try {
    const r = await openLiveView({ ctx, client, sessionId, cursor: page.stream_cursor ?? 'now', deltas: o.deltas, untilIdle: true, abort: w });
    viewEnd(sessionId, r);
    if (r.reason === 'idle' && r.message !== undefined) await write(ctx.io.stdout, r.message.endsWith('\n') ? r.message : r.message + '\n');
  } finally {
    w.dispose();
  }
}

/** Our turn as the stream shows it: its start, the coordinator's last message, and how it ended. */
/** The events a turn's end depends on (Turn.see); with -o ndjson the rest are written as received, never parsed. */
const endsTurn = (type: string): boolean => type === 'user.message' || decides(type);

class Turn {
  eventId?: string;
  text?: string;
  private end?: Outcome;
  private started = false;
  private readonly errors = new TurnErrors();

  constructor(private readonly sessionId: string) {}

  /** True when the turn is over. */
  see(e: SessionEvent): boolean {
    if (!this.started) {
      // Without an event_id (no input queue) the first message after sending is ours.
      const ours = e.type === 'user.message' && (this.eventId === undefined || e.id === this.eventId);
      // A session terminated before our message ran ends the wait too.
      if (!ours && !(e.type === 'session.status' && e.data?.status === 'terminated')) return false;
      this.started = true;
    }
    this.errors.see(e);
    if (e.type === 'agent.message' && e.session_thread_id === undefined) this.text = textOfMessage(e.data?.content);
    this.end ??= outcomeOfStatus(this.sessionId, e);
    return this.ended;
  }

  get ended(): boolean {
    return this.end !== undefined;
  }

  /** Exit 0, or exit 11 with the turn's failure. */
  finish(): void {
    if (this.end) this.errors.finish(this.end);
  }
}
