import type { ApiClient } from '../../api/client';
import { environments } from '../../api/environments';
import { agents } from '../../api/resources';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { exitCodeFor, ExitCodeError, InterruptedError, SessionInterruptedError, SessionWaitingError, UsageError, WaitTimeoutError } from '../../runtime/errors';
import { errorJson, errorLine, jsonFailures } from '../../output/error-line';
import { unknownOutcome } from '../../cli/verbs/idempotency';
import { mapAsync } from '../../cli/verbs/list';
import { Channel } from '../../async/channel';
import { resolveId } from '../../selection/names';
import { followTurn } from '../../follow/turn';
import { waitIdle } from '../../follow/wait-idle';
import { textOfMessage } from '../../follow/outcome';
import { fileLines } from '../../input/read';
import type { Io } from '../../runtime/io';
import { LIMITS } from '../../wire/limits';
import type { Column } from '../../output/table';
import { worstExit } from '../../session/state';
import type { ParallelOptions } from './parse';
import { shellWord } from '../../text/shell-words';

/** One line of the message file: the message, and what the new session is given besides. */
export interface MessageLine {
  /** 1-based, as an editor counts. */
  line: number;
  text: string;
  title?: string;
  metadata?: Record<string, string>;
}

/**
 * How one line ended, with the exit code `run` would give it alone: `idle` (0), `failed` (11, or the create's own
 * error), `interrupted` (12: the session was interrupted), `waiting` on a human (13); or svc stopped following a turn
 * that goes on: `timeout` (124, --timeout) or `abandoned` (130, Ctrl-C).
 */
export interface LineResult {
  line: number;
  session_id: string | null;
  status: 'idle' | 'failed' | 'interrupted' | 'waiting' | 'timeout' | 'abandoned';
  ok: boolean;
  exit: number;
  reply?: string | null;
  error?: Record<string, unknown>;
}

const MESSAGE_KEYS = new Set(['message', 'text', 'title', 'metadata']);
/** History pages read to find a replayed session's message and reply. */
const HISTORY_PAGE = 100;

export const LINE_COLUMNS: Column<LineResult>[] = [
  { header: 'LINE', get: (r) => r.line },
  { header: 'SESSION', get: (r) => r.session_id },
  { header: 'STATUS', get: (r) => r.status },
  { header: 'EXIT', get: (r) => r.exit },
  { header: 'REPLY', get: (r) => (r.ok ? r.reply : r.error?.message) },
];

/**
 * The message file, checked whole before anything is sent: one message per line, a JSON string or an object with
 * `message` (or `text`) and optionally the session's `title` and `metadata`. Blank lines are skipped. Each line is a
 * request of its own, so the line is bounded (the service's JSON body limit), not the file: it is read as lines.
 */
export async function readMessageLines(io: Pick<Io, 'cwd' | 'signal'>, file: string): Promise<MessageLine[]> {
  const out: MessageLine[] = [];
  for await (const lines of fileLines(io, file, LIMITS.jsonBody))
    for (const { n, text } of lines) if (text.trim() !== '') out.push(parseMessageLine(text, n, file));
  if (!out.length) throw new UsageError(`${file} holds no message: give one per line`);
  return out;
}

function parseMessageLine(raw: string, line: number, file: string): MessageLine {
  const bad = (why: string) => new UsageError(`${file} line ${line}: ${why}`);
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw bad('not JSON: give a JSON string or an object with "message" per line');
  }
  if (typeof v === 'string') {
    if (v === '') throw bad('the message is empty');
    return { line, text: v };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw bad('give a JSON string or an object with "message"');
  const o = v as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !MESSAGE_KEYS.has(k));
  if (unknown !== undefined) throw bad(`unknown member "${unknown}" (a line takes message or text, title, metadata)`);
  if (o.message !== undefined && o.text !== undefined) throw bad('give "message" or "text", not both');
  const text = o.message ?? o.text;
  if (typeof text !== 'string' || text === '') throw bad('"message" must be a non-empty string');
  if (o.title !== undefined && typeof o.title !== 'string') throw bad('"title" must be a string');
  if (o.metadata !== undefined && !isStringMap(o.metadata)) throw bad('"metadata" must be an object of strings');
  return { line, text, ...(o.title !== undefined ? { title: o.title as string } : {}), ...(o.metadata !== undefined ? { metadata: o.metadata } : {}) };
}

function isStringMap(v: unknown): v is Record<string, string> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

/**
 * `svc run --parallel N --message-file F`: one new session per line, at most N turns at once, each line's result
 * printed as it settles. Exit as `sessions wait`: the worst of the lines' codes by `worstExit` (11 > 13 > 12 > 124, a
 * line's own error such as a refused create in its place), 124 when `--timeout` left turns running or lines not
 * started, 130 on Ctrl-C (the turns in flight are reported with their sessions, which go on running).
 */
export async function runParallel(ctx: Ctx, o: ParallelOptions): Promise<void> {
  const lines = await readMessageLines(ctx.io, o.messageFile);
  const api = await ctx.api();
  const agentId = await resolveId(api, agents, 'agent', o.agent);
  const environmentId = o.environment ? await resolveId(api, environments, 'environment', o.environment) : undefined;
  // Creates and sends finish once started, so a session made just before Ctrl-C is known and reported.
  const client = await ctx.client(ctx.apiKey(), undefined, { outliveSignal: true });
  const deadline = new AbortController();
  const timer = o.timeoutMs === undefined ? undefined : setTimeout(() => deadline.abort(), o.timeoutMs);
  const signal = AbortSignal.any([deadline.signal, ...(ctx.io.signal ? [ctx.io.signal] : [])]);
  const { Ctx: Context } = await import('../../runtime/context');
  const sub = new Context({ ...ctx.io, signal }, ctx.globals);
  const settled = new Channel<LineResult>();
  const results = new Map<number, LineResult>();
  const stopped = (): 'abandoned' | 'timeout' => (ctx.io.signal?.aborted ? 'abandoned' : 'timeout');

  const one = async (m: MessageLine): Promise<void> => {
    let sessionId: string | null = null;
    let result: LineResult;
    try {
      sessionId = await createSession(client, m, agentId, environmentId, o);
      // A fresh key makes a fresh session; under a key given again the create may be a replay of an earlier run's.
      const earlier = o.keyGiven ? await firstMessage(client, sessionId) : undefined;
      const reply = earlier === undefined ? await newTurn(sub, client, sessionId, m.text) : await earlierTurn(sub, client, sessionId, m, earlier);
      result = { line: m.line, session_id: sessionId, status: 'idle', ok: true, exit: 0, reply };
    } catch (e) {
      const cut = signal.aborted && (e instanceof InterruptedError || e instanceof WaitTimeoutError);
      const status = cut ? stopped() : lineStatus(e);
      const exit = status === 'abandoned' ? 130 : status === 'timeout' ? 124 : exitCodeFor(e);
      result = {
        line: m.line,
        session_id: sessionId,
        status,
        ok: false,
        exit,
        error: cut ? stoppedError(status as 'abandoned' | 'timeout', sessionId) : errorObject(e),
      };
      // Under an explicit -o json|ndjson the line is the JSON error object (with session_id when the turn ended badly).
      if (!cut) await ctx.msg(jsonFailures(ctx.settings.output?.value) ? errorJson(e) : `line ${m.line}: ${errorLine(e)}`);
    }
    results.set(m.line, result);
    settled.push(result);
  };
  let next = 0;
  const worker = async () => {
    while (next < lines.length && !signal.aborted) await one(lines[next++]);
  };
  const all = Promise.all(Array.from({ length: Math.min(o.parallel, lines.length) }, worker)).finally(() => {
    clearTimeout(timer);
    settled.close();
  });
  // `-q` prints the sessions' IDs, for `svc sessions wait -` and the like.
  if (ctx.format === 'id')
    await ctx.out.list(
      mapAsync(settled, (r) => ({ id: r.session_id })),
      [],
    );
  else await ctx.out.list(settled, LINE_COLUMNS);
  await all;
  const notStarted = lines.length - next;
  const ended = lines.flatMap((m) => results.get(m.line) ?? []);
  const cut = ended.filter((r) => r.status === 'timeout' || r.status === 'abandoned').length;
  await ctx.msg(summary(ended, lines.length, notStarted));
  if (ctx.io.signal?.aborted) throw new InterruptedError();
  // Lines never started count as cut by --timeout (124).
  const worst = worstExit([...ended.map((r) => r.exit), ...(notStarted ? [124] : [])]);
  if (worst === 124) throw new WaitTimeoutError(`${cut + notStarted} of ${lines.length} lines not finished after --timeout`);
  const first = ended.find((r) => r.exit === worst);
  if (first) throw new ExitCodeError(worst, `line ${first.line} failed`, true);
}

/** A line's status by the error its turn ended with. */
function lineStatus(e: unknown): LineResult['status'] {
  if (e instanceof SessionInterruptedError) return 'interrupted';
  if (e instanceof SessionWaitingError) return 'waiting';
  return 'failed';
}

/** The line's session, created with the key `BASE:LINE`: a second run with the same base replays it instead of creating another. */
async function createSession(c: ApiClient, m: MessageLine, agentId: string, environmentId: string | undefined, o: ParallelOptions): Promise<string> {
  const title = m.title ?? o.title;
  const metadata = o.metadata || m.metadata ? { ...o.metadata, ...m.metadata } : undefined;
  const body = {
    agent_id: agentId,
    ...(environmentId ? { environment_id: environmentId } : {}),
    ...(title !== undefined ? { title } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
  };
  const create = sessions.create(c, body, `${o.createKey}:${m.line}`);
  return String((await unknownOutcome(create, 'svc sessions list --newer-than 1h', o.createKey)).id);
}

async function newTurn(ctx: Ctx, c: ApiClient, sessionId: string, text: string): Promise<string | null> {
  const body = { events: [{ type: 'user.message', data: { content: [{ type: 'text', text }] } }] };
  return (await followTurn(ctx, c, { sessionId, body })).text ?? null;
}

/** The text of the session's first `user.message`, or undefined when it has none yet (a session just created). */
async function firstMessage(c: ApiClient, sessionId: string): Promise<string | undefined> {
  for await (const e of sessions.history(c, sessionId, { order: 'asc' }, { all: true, pageSize: HISTORY_PAGE }))
    if (e.type === 'user.message' && e.session_thread_id === undefined) return textOfMessage(e.data?.content);
  return undefined;
}

/**
 * A line's session replayed under the same key already holds a message, sent by an earlier run: the same line
 * waits for that turn and reports it, with no second turn; a changed line is a conflict (exit 7), nothing sent.
 */
async function earlierTurn(ctx: Ctx, c: ApiClient, sessionId: string, m: MessageLine, earlier: string): Promise<string | null> {
  if (earlier !== m.text)
    throw new ExitCodeError(
      7,
      `session ${sessionId}, made for line ${m.line} under this --idempotency-key, already holds another message: the line changed since; give a new --idempotency-key to run it`,
    );
  await waitIdle(ctx, c, sessionId, undefined);
  for await (const e of sessions.history(c, sessionId, { order: 'desc' }, { all: true, pageSize: HISTORY_PAGE }))
    if (e.type === 'agent.message' && e.session_thread_id === undefined) return textOfMessage(e.data?.content);
  return null;
}

const errorObject = (e: unknown): Record<string, unknown> => (JSON.parse(errorJson(e)) as { error: Record<string, unknown> }).error;

/** Why svc stopped following a turn: the session was not interrupted, it goes on. */
function stoppedError(status: 'abandoned' | 'timeout', sessionId: string | null): Record<string, unknown> {
  if (status === 'timeout') return errorObject(new WaitTimeoutError('the turn was still running at --timeout'));
  const id = sessionId ?? 'ID';
  return { type: 'cli_error', message: `svc stopped following at Ctrl-C; the session goes on (svc sessions interrupt ${shellWord(id)} stops it)` };
}

function summary(ended: LineResult[], total: number, notStarted: number): string {
  const count = (...of: Array<LineResult['status']>) => ended.filter((r) => of.includes(r.status)).length;
  const parts = [`idle ${count('idle')}`, `failed ${count('failed')}`];
  for (const s of ['interrupted', 'waiting'] as const) if (count(s)) parts.push(`${s} ${count(s)}`);
  if (count('timeout', 'abandoned')) parts.push(`still running ${count('timeout', 'abandoned')}`);
  if (notStarted) parts.push(`not started ${notStarted}`);
  return `${parts.join(', ')} of ${total} lines`;
}
