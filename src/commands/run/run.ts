import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../../api/client';
import { environments } from '../../api/environments';
import { agents } from '../../api/resources';
import { sessions } from '../../api/sessions';
import { refuseDebugOnLiveView } from '../../cli/screen';
import { resolveId } from '../../fleet/names';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { chompNewline, fileText, stdinText } from '../../input/read';
import { write } from '../../io';
import { waitSignal } from '../../follow/deadline';
import { followTurn } from '../../follow/turn';
import { viewEnd } from '../../turn/outcome';
import { escapeControls } from '../../output/controls';
import type { MessageSource, NewSession, RunOptions } from './parse';

type MessageBody = { events: unknown[] };

/**
 * What `run` prints (CLI.md "Honest flags"): the live view on a terminal, else the reply text; an explicit -o asks for
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
  const body = { events: [{ type: 'user.message', data: { content: [{ type: 'text', text }] } }] };
  if (output === 'live') return runLive(ctx, client, sessionId, body, o);
  const lines = output === 'lines' ? (ctx.settings.jq !== undefined ? 'each' : 'raw') : undefined;
  const turn = await followTurn(ctx, client, { sessionId, body, timeoutMs: o.timeoutMs, lines, deltas: o.deltas });
  if (output === 'text' && turn.text !== undefined) await printReply(ctx, turn.text);
  else if (output === 'id') await ctx.out.item({ id: sessionId });
  else if (output === 'object') {
    const session = await sessions.get(client, sessionId);
    await ctx.out.item({ session, reply: turn.text ?? null, message: turn.message ?? null });
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
async function runLive(ctx: Ctx, client: ApiClient, sessionId: string, body: MessageBody, o: RunOptions): Promise<void> {
  const page = await sessions.historyPage(client, sessionId, { page_size: 1, order: 'desc' });
  await sessions.sendEvents(client, sessionId, body, randomUUID());
  const { openLiveView } = await import('../../live/open');
  const w = waitSignal(ctx, o.timeoutMs, `session ${sessionId} did not finish the turn`);
  try {
    const r = await openLiveView({
      ctx,
      client,
      sessionId,
      cursor: page.stream_cursor ?? 'now',
      deltas: true,
      untilIdle: true,
      abort: w,
      leaveNote: `left the view; the turn goes on: follow it with \`svc sessions tail ${sessionId}\``,
    });
    viewEnd(sessionId, r);
    if (r.reason === 'idle' && r.message !== undefined) await printReply(ctx, r.message);
  } finally {
    w.dispose();
  }
}
