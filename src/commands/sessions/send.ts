import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import { ApiError, NetworkError } from '../../api/errors';
import type { ApiClient } from '../../api/client';
import { UsageError } from '../../runtime/errors';
import { holdsInput } from '../../follow/outcome';
import type { SessionStateInput } from '../../session/state';
import { readData } from '../../input/data';
import { chompNewline, stdinText } from '../../input/read';
import { LIMITS } from '../../wire/limits';
import { examples, type Kit } from '../../cli/action';
import { idempotencyFlags, idempotencyKey } from '../../cli/verbs/idempotency';
import { printAccepted } from './accepted';
import { pickSession } from './pick';
import { addFlags, flagTable, oneOf, type FlagsOf } from '../../cli/flags';
import { shellWord } from '../../text/shell-words';

/** `svc sessions send`'s flags. */
export const SESSION_SEND_FLAGS = flagTable({
  text: { flags: '--text <text>', description: 'message text; - reads it from standard input (also read when piped and no --text/--data)' },
  data: { flags: '--data <json|@file|@->', description: 'the whole request body {type?, events: [...]} or an events array, JSON or YAML' },
  steer: { flags: '--steer', description: 'inject into the running turn at its next step instead of queuing a new turn' },
  file: { flags: '--file <file_id>', description: 'attach an uploaded file as a file block (repeatable)', repeat: true },
  ...idempotencyFlags(),
});

export function addSend(group: Command, kit: Kit): void {
  const cmd = group
    .command('send')
    .argument('<session>', 'session ID')
    .description('Send a message: queued as its own turn, or with --steer injected into the running turn; prints the accepted event_id');
  addFlags(pickSession(cmd), SESSION_SEND_FLAGS);
  examples(cmd, [
    'svc sessions send SESSION_ID --text "Summarise the report"',
    'git diff | svc sessions send SESSION_ID',
    'svc sessions send SESSION_ID --text "Use this instead" --steer',
    'svc sessions send SESSION_ID --text "Review these" --file FILE_A --file FILE_B -q',
  ]);
  cmd.action(kit.verb(parseSend, runSend));
}

/** `svc sessions send SESSION [--text T|--data SOURCE] [--steer] [--file ID]… [--idempotency-key K]`. */
export interface SendOptions {
  session: string;
  /** The message text, or - for standard input; neither --text nor --data reads piped standard input. */
  text?: string;
  /** The request body or events array: JSON or YAML, @file or @-. */
  data?: string;
  steer: boolean;
  files: string[];
  /** As given; the key is made (and its length checked) once the body is built, as before. */
  idempotencyKey?: unknown;
}

export function parseSend([session]: string[], flags: FlagsOf<typeof SESSION_SEND_FLAGS>): SendOptions {
  oneOf(flags, { '--text': 'text', '--data': 'data' });
  const files = flags.file ?? [];
  const data = flags.data;
  if (data !== undefined && files.length) throw new UsageError('--file cannot be used with --data: put the file blocks in the data');
  return { session, text: flags.text, data, steer: Boolean(flags.steer), files, idempotencyKey: flags.idempotencyKey };
}

export async function runSend(ctx: Ctx, o: SendOptions): Promise<void> {
  const body = await sendBody(ctx, o);
  // Checked here so an oversized message fails before any request (the service answers 400 anyway).
  if (Buffer.byteLength(JSON.stringify(body)) > LIMITS.jsonBody)
    throw new UsageError(`the message is over the ${LIMITS.jsonBody / 1024 / 1024} MiB request limit`);
  const key = idempotencyKey(o);
  const client = await ctx.api();
  await printAccepted(ctx, await sessions.sendEvents(client, o.session, body, key));
  if (body.events.some((e) => (e as { type?: unknown }).type === 'user.message')) await warnIfHeld(ctx, client, o.session);
}

/** A message sent to an interrupted session waits behind the interrupt until a Continue: said on stderr, the send still succeeded. */
async function warnIfHeld(ctx: Ctx, client: ApiClient, sessionId: string): Promise<void> {
  let s: SessionStateInput;
  try {
    s = (await sessions.get(client, sessionId)) as SessionStateInput;
  } catch (e) {
    // The input was accepted; whether it is held stays unsaid rather than failing the send.
    if (e instanceof ApiError || e instanceof NetworkError) return;
    throw e;
  }
  if (!holdsInput(s)) return;
  await ctx.msg(`warning: session ${sessionId} is interrupted: this input waits behind the interrupt until \`svc sessions continue ${shellWord(sessionId)}\``);
}

async function sendBody(ctx: Ctx, o: SendOptions): Promise<{ type?: string; events: unknown[] }> {
  const mode = o.steer ? { type: 'steer' } : {};
  if (o.data !== undefined) {
    const data = await readData(o.data, ctx.io.stdin, ctx.io.cwd, ctx.io.signal);
    if (Array.isArray(data)) return { ...mode, events: data };
    if (data && typeof data === 'object' && Array.isArray((data as { events?: unknown }).events)) return { ...(data as { events: unknown[] }), ...mode };
    throw new UsageError('--data must be a request body {type?, events: [...]} or an array of events');
  }
  const text = await messageText(ctx, o.text, o.files.length > 0);
  // An empty message is allowed: the service wakes the agent with "Continue.".
  const content = [...(text ? [{ type: 'text', text }] : []), ...o.files.map((file_id) => ({ type: 'file', file_id }))];
  return { ...mode, events: [{ type: 'user.message', data: { content } }] };
}

/** `--text T`; `--text -` or piped standard input; a file-only message has no text. */
async function messageText(ctx: Ctx, text: string | undefined, hasFiles: boolean): Promise<string> {
  if (text !== undefined && text !== '-') return text;
  if (text === undefined && hasFiles) return '';
  if (text === undefined && ctx.io.stdin.isTTY) throw new UsageError('give --text, --data or --file, or pipe the message on standard input');
  return chompNewline(await stdinText(ctx.io));
}
