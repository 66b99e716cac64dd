import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../../api/client';
import { environments } from '../../api/environments';
import { agents } from '../../api/resources';
import { sessions } from '../../api/sessions';
import { refuseDebugOnLiveView } from '../../cli/screen';
import { resolveId } from '../../selection/names';
import type { Ctx } from '../../runtime/context';
import { ApiError, NetworkError } from '../../api/errors';
import { InterruptedError, SessionInterruptedError, UsageError } from '../../runtime/errors';
import { errorLine } from '../../output/error-line';
import { chompNewline, fileText, stdinText } from '../../input/read';
import { write } from '../../runtime/io';
import { waitSignal } from '../../follow/deadline';
import { followTurn, type TurnOptions } from '../../follow/turn';
import { holdsInput, viewEnd } from '../../follow/outcome';
import type { SessionStateInput } from '../../session/state';
import { pollSession } from '../sessions/poll';
import { escapeControls } from '../../output/controls';
import type { MessageSource, NewSession, RunOptions } from './parse';
import { shellWord } from '../../text/shell-words';

type MessageBody = { events: unknown[] };

/**
 * What `run` prints (docs/behaviour.md "Honest flags"): the live view on a terminal, else the reply text; an explicit -o asks for
 * something else, on a terminal too: every event as a line (ndjson), the final session and reply as one object
 * (json, yaml, --jq), the session ID (id, -q), the reply text without the view (table).
 */
export type RunOutput = 'live' | 'text' | 'object' | 'id' | 'lines';

export function runOutput(ctx: Ctx, o: Pick<RunOptions, 'deltas' | 'noLive'>): RunOutput {
  const format = ctx.settings.output?.value;
  const out: RunOutput =
    format === 'ndjson'
      ? 'lines'
      : ctx.settings.jq !== undefined || format === 'json' || format === 'yaml'
        ? 'object'
        : format === 'id'
          ? 'id'
          : ctx.io.stdout.isTTY && !o.noLive && format === undefined
            ? 'live'
            : 'text';
  // The live view shows previews by default; elsewhere only event lines can carry deltas.
  if (o.deltas && out !== 'lines' && out !== 'live') throw new UsageError('--deltas adds agent.delta lines to -o ndjson: use it with -o ndjson');
  return out;
}

export async function runRun(ctx: Ctx, o: RunOptions): Promise<void> {
  const output = runOutput(ctx, o);
  if (output === 'live') refuseDebugOnLiveView(ctx);
  const text = await messageText(ctx, o.message);
  const client = await ctx.api();
  const sessionId = 'session' in o.target ? o.target.session : await createSession(ctx, client, o.target);
  // --timeout bounds the whole run: a wind-down waited out before sending spends it too.
  const started = Date.now();
  const resume = 'session' in o.target && (await interruptedBeforeSend(ctx, client, sessionId, o.resume === true, o.timeoutMs));
  const body = { events: [{ type: 'user.message', data: { content: [{ type: 'text', text }] } }] };
  // Set as the message goes out: a signal during the send may come after the service accepted it.
  let sent = false;
  const sending = () => void (sent = true);
  // `--continue`: once the message is queued behind the interrupt, the Continue that runs it.
  const afterSend = async () => void (resume && (await sessions.continue(client, sessionId)));
  try {
    if (output === 'live') return await runLive(ctx, client, sessionId, body, o, started, { sending, afterSend });
    const lines = output === 'lines' ? (ctx.settings.jq !== undefined ? 'each' : 'raw') : undefined;
    const turn = await followTurn(ctx, client, { sessionId, body, timeoutMs: o.timeoutMs, timeoutSince: started, lines, deltas: o.deltas, sending, afterSend });
    if (output === 'text' && turn.text !== undefined) await printReply(ctx, turn.text);
    else if (output === 'id') await ctx.out.item({ id: sessionId });
    else if (output === 'object') {
      const session = await sessions.get(client, sessionId);
      await ctx.out.item({ session, reply: turn.text ?? null, message: turn.message ?? null });
    }
  } catch (e) {
    throw await leaving(ctx, sessionId, e, o.interruptOnExit === true && sent);
  }
}

/**
 * An interrupted session (or one stopping for an interrupt) holds new input until a Continue, so a message sent to it
 * would be followed forever: exit 12 with nothing sent, unless `--continue` asks to resume it after sending (true).
 * A stopping session is first read until its wind-down ends: a Continue then would answer 409, and the interrupted
 * status that ends the wind-down must come before the follow starts, not look like an interrupt of the new turn.
 */
async function interruptedBeforeSend(ctx: Ctx, client: ApiClient, sessionId: string, resume: boolean, timeoutMs: number | undefined): Promise<boolean> {
  const s = await sessions.get(client, sessionId);
  if (!holdsInput(s as SessionStateInput)) return false;
  if (!resume) {
    const line = `session ${sessionId} is interrupted: a message sent now would wait behind the interrupt; resume it with \`svc sessions continue ${shellWord(sessionId)}\` first, or rerun with --continue`;
    throw new SessionInterruptedError(line, sessionId, false);
  }
  if (s.stopping !== true) return true;
  const w = waitSignal(ctx, timeoutMs, `session ${sessionId} was still stopping (winding down an interrupt)`);
  try {
    await pollSession(ctx, client, sessionId, (x) => x.stopping !== true, w);
  } finally {
    w.dispose();
  }
  return true;
}

/** How long `--interrupt-on-exit` waits for the service to take the interrupt after the signal. */
const INTERRUPT_WAIT_MS = 5_000;

/**
 * Ctrl-C or SIGTERM while following the turn (exit 130): the one line says what became of the session, which goes on
 * unless `--interrupt-on-exit` (and the message was sent): then it is interrupted first, with a client that outlives
 * the signal. Any other error passes through.
 */
async function leaving(ctx: Ctx, sessionId: string, e: unknown, interrupt: boolean): Promise<unknown> {
  if (!(e instanceof InterruptedError) && !ctx.io.signal?.aborted) return e;
  const goesOn = `follow it with \`svc sessions tail ${shellWord(sessionId)}\`, or stop it with \`svc sessions interrupt ${shellWord(sessionId)}\``;
  if (!interrupt) return new InterruptedError(`interrupted; session ${sessionId} goes on: ${goesOn}`);
  // A service that never answers the interrupt must not hold svc after the signal: a bounded wait, then the line.
  const bound = AbortSignal.timeout(INTERRUPT_WAIT_MS);
  try {
    await sessions.interrupt(await ctx.client(ctx.apiKey(), undefined, { signal: bound }), sessionId);
    return new InterruptedError(`interrupted; so is session ${sessionId} (--interrupt-on-exit): \`svc sessions continue ${shellWord(sessionId)}\` resumes it`);
  } catch (failed) {
    if (bound.aborted)
      return new InterruptedError(`interrupted; interrupting session ${sessionId} got no answer in ${INTERRUPT_WAIT_MS / 1000} s, so it may go on: ${goesOn}`);
    if (!(failed instanceof ApiError || failed instanceof NetworkError)) throw failed;
    return new InterruptedError(
      `interrupted; interrupting session ${sessionId} failed (${errorLine(failed).replace(/^error: /, '')}), so it goes on: ${goesOn}`,
    );
  }
}

// The reply is the service's text: its control characters are shown, never obeyed, whatever stdout is.
const printReply = (ctx: Ctx, text: string) => write(ctx.io.stdout, escapeControls(text.endsWith('\n') ? text : text + '\n'));

async function messageText(ctx: Ctx, m: MessageSource): Promise<string> {
  if (m.from === 'text') return m.text;
  return chompNewline(m.from === 'file' ? await fileText(ctx.io, m.file) : await stdinText(ctx.io));
}

async function createSession(ctx: Ctx, client: ApiClient, o: NewSession): Promise<string> {
  // A name works for the agent and the environment (the ID is tried first).
  const agentId = await resolveId(client, agents, 'agent', o.agent);
  const environmentId = o.environment ? await resolveId(client, environments, 'environment', o.environment) : undefined;
  const fields = { ...(o.title !== undefined ? { title: o.title } : {}), ...(o.metadata ? { metadata: o.metadata } : {}) };
  const s = await sessions.create(client, { agent_id: agentId, ...(environmentId ? { environment_id: environmentId } : {}), ...fields }, o.createKey);
  await ctx.msg(`session ${s.id}`);
  return s.id as string;
}

/**
 * On a terminal: the live view, started from a cursor read before sending, so it too misses nothing; once it
 * closes at idle, the final message is printed as without a terminal.
 */
async function runLive(
  ctx: Ctx,
  client: ApiClient,
  sessionId: string,
  body: MessageBody,
  o: RunOptions,
  started: number,
  hooks: Required<Pick<TurnOptions, 'sending' | 'afterSend'>>,
): Promise<void> {
  const page = await sessions.historyPage(client, sessionId, { page_size: 1, order: 'desc' });
  hooks.sending();
  await sessions.sendEvents(client, sessionId, body, randomUUID());
  await hooks.afterSend();
  const { openLiveView } = await import('../../live/open');
  const w = waitSignal(ctx, o.timeoutMs, `session ${sessionId} did not finish the turn`, started);
  try {
    const r = await openLiveView({
      ctx,
      client,
      sessionId,
      cursor: page.stream_cursor ?? 'now',
      deltas: true,
      untilIdle: true,
      abort: w,
      leaveNote: `left the view; the turn goes on: follow it with \`svc sessions tail ${shellWord(sessionId)}\``,
    });
    viewEnd(r);
    if (r.reason === 'idle' && r.message !== undefined) await printReply(ctx, r.message);
  } finally {
    w.dispose();
  }
}
