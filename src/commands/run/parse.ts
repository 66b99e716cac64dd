import { flagTable, longFlag, type FlagsOf } from '../../cli/flags';
import { editMetadata, metadataFlags, parseMetadataFlags } from '../../cli/verbs/body';
import { idempotencyFlags, idempotencyKey } from '../../cli/verbs/idempotency';
import { parseCount } from '../../config/settings';
import { UsageError } from '../../runtime/errors';
import { parseDeadline } from '../../follow/deadline';

/** The largest --parallel: each turn in flight holds an event stream open. */
export const MAX_PARALLEL = 64;

/** The session a run creates: its agent and environment (ID or name) and the create's Idempotency-Key. */
export interface NewSession {
  agent: string;
  environment?: string;
  createKey: string;
  /** `--title` and `--metadata KEY=VALUE` of the new session (with --parallel, a line's own win). */
  title?: string;
  metadata?: Record<string, string>;
}

/** Where the one message of a single run comes from. */
export type MessageSource = { from: 'text'; text: string } | { from: 'file'; file: string } | { from: 'stdin' };

/** `svc run` with one message: to a new session, or to `--session`. */
export interface RunOptions {
  target: NewSession | { session: string };
  message: MessageSource;
  timeoutMs?: number;
  deltas: boolean;
  noLive: boolean;
  /** `--continue`: an interrupted `--session` gets the message, then a Continue (else exit 12 with nothing sent). */
  resume?: boolean;
  /** `--interrupt-on-exit`: Ctrl-C or SIGTERM interrupts the session before svc exits (else the turn goes on). */
  interruptOnExit?: boolean;
}

/** `svc run --parallel N --message-file F`: one new session per line; each create sends `${createKey}:${line}`. */
export interface ParallelOptions extends NewSession {
  /** `--idempotency-key` was given: a line's session may be a replay holding an earlier run's message. */
  keyGiven: boolean;
  messageFile: string;
  parallel: number;
  timeoutMs?: number;
}

export type RunCommandOptions = ({ mode: 'single' } & RunOptions) | ({ mode: 'parallel' } & ParallelOptions);

/** `svc run`'s flags. */
export const RUN_FLAGS = flagTable({
  agent: { flags: '--agent <agent>', description: 'agent to run in a new session (required unless --session)' },
  environment: { flags: '--environment <environment>', description: 'environment of the new session' },
  session: { flags: '--session <session>', description: 'send to this existing session instead of creating one' },
  message: { flags: '--message <text>', description: 'the message to send' },
  messageFile: { flags: '--message-file <file>', description: 'read the message from this file' },
  timeout: { flags: '--timeout <duration>', description: 'give up after this long: 10m, 30s, 1h or seconds (exit 124); default: no limit' },
  deltas: { flags: '--deltas', description: 'with -o ndjson, include agent.delta lines (the live view shows previews by default: d hides them)' },
  live: { flags: '--no-live', description: 'no live view even on a terminal' },
  continue: {
    flags: '--continue',
    description: 'with --session: if the session is interrupted, send the message, then resume it (else exit 12, nothing sent)',
  },
  interruptOnExit: {
    flags: '--interrupt-on-exit',
    description: 'on Ctrl-C or SIGTERM, interrupt the session before exiting (for CI cancels); else the turn goes on',
  },
  title: { flags: '--title <title>', description: 'title of the new session (with --parallel, for lines without their own)' },
  ...idempotencyFlags('Idempotency-Key of the session create (default: a fresh UUID); with --parallel, KEY:LINE per line'),
  parallel: {
    flags: '--parallel <n>',
    description: `one new session per line of --message-file, at most N at once (1..${MAX_PARALLEL}); a line is a JSON string or {"message", "title"?, "metadata"?}; prints {"line","session_id","status","ok","exit","reply"|"error"} per line as it settles`,
  },
  ...metadataFlags(false),
});
type RunFlags = FlagsOf<typeof RUN_FLAGS>;

/** The flags that shape the session a run creates: with --session nothing is created, so they would be ignored. */
const NEW_SESSION_FLAGS = ['agent', 'environment', 'idempotencyKey', 'title', 'metadata'] as const;

/**
 * `svc run`'s flags, checked before any request (exit 2). The checks that need the resolved settings (-o, --jq with
 * --deltas) run in the run step.
 */
export function parseRun([input]: string[], flags: RunFlags): RunCommandOptions {
  return flags.parallel !== undefined ? { mode: 'parallel', ...parseParallel(input, flags.parallel, flags) } : { mode: 'single', ...parseSingle(input, flags) };
}

function parseSingle(input: string | undefined, flags: RunFlags): RunOptions {
  // The framework gives a verb that declares --timeout its own value (the per-request one is --request-timeout).
  const timeoutMs = parseDeadline(flags.timeout);
  const createKey = idempotencyKey(flags);
  const agent = flags.agent;
  const session = flags.session;
  if (!agent && !session) throw new UsageError('--agent is required (or --session to reuse a session)');
  const unused = session === undefined ? undefined : NEW_SESSION_FLAGS.find((key) => flags[key] !== undefined);
  if (unused) throw new UsageError(`${longFlag(RUN_FLAGS[unused])} applies to a new session, and --session reuses one: drop one of the two`);
  if (flags.continue && session === undefined) throw new UsageError('--continue resumes an interrupted --session: a new session is never interrupted');
  return {
    target: session !== undefined ? { session } : { agent: agent!, environment: flags.environment, createKey, ...sessionFields(flags) },
    message: messageSource(input, flags),
    timeoutMs,
    deltas: Boolean(flags.deltas),
    noLive: flags.live === false,
    resume: Boolean(flags.continue),
    interruptOnExit: Boolean(flags.interruptOnExit),
  };
}

function messageSource(input: string | undefined, flags: RunFlags): MessageSource {
  if (input !== undefined && input !== '-') throw new UsageError(`unexpected argument "${input}": only - (standard input) is accepted`);
  const message = flags.message;
  const file = flags.messageFile;
  const given = [message !== undefined, file !== undefined, input === '-'].filter(Boolean).length;
  if (given !== 1) throw new UsageError('give the message once: --message T, --message-file F, or - for standard input');
  if (message !== undefined) return { from: 'text', text: message };
  if (file !== undefined) return { from: 'file', file };
  return { from: 'stdin' };
}

/** `--title` and `--metadata` of a new session, checked (exit 2). */
function sessionFields(flags: RunFlags): Pick<NewSession, 'title' | 'metadata'> {
  const metadata = parseMetadataFlags(flags.metadata, false);
  return { ...(flags.title !== undefined ? { title: flags.title } : {}), ...(metadata ? { metadata: editMetadata({}, metadata) } : {}) };
}

/** `--parallel` and the flags it needs or refuses. */
function parseParallel(input: string | undefined, count: string, flags: RunFlags): ParallelOptions {
  const parallel = parseCount(count, '--parallel', 1, MAX_PARALLEL);
  const messageFile = flags.messageFile;
  if (messageFile === undefined) throw new UsageError('--parallel takes its messages from --message-file F.ndjson, one per line');
  if (flags.message !== undefined || input !== undefined) throw new UsageError('--parallel reads every message from --message-file: drop --message and -');
  if (flags.session !== undefined) throw new UsageError('--parallel starts one new session per line: it cannot reuse --session');
  const agent = flags.agent;
  if (!agent) throw new UsageError('--agent is required with --parallel');
  if (flags.deltas) throw new UsageError('--deltas works on one run: --parallel prints one result per line');
  if (flags.continue) throw new UsageError('--continue resumes an interrupted --session: --parallel starts new sessions');
  if (flags.interruptOnExit)
    throw new UsageError('--interrupt-on-exit works on one run: after Ctrl-C, --parallel names the sessions in flight for `svc sessions interrupt -`');
  return {
    agent,
    environment: flags.environment,
    messageFile,
    parallel,
    timeoutMs: parseDeadline(flags.timeout),
    createKey: idempotencyKey(flags),
    ...sessionFields(flags),
    keyGiven: flags.idempotencyKey !== undefined,
  };
}
