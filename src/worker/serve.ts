import type { ApiClient } from '../api/client';
import { sessions } from '../api/sessions';
import type { Follow } from '../api/stream/types';
import { ExitCodeError } from '../runtime/errors';
import type { InStream, OutStream } from '../runtime/io';
import { systemClock, type Clock } from './clock';
import { MAX_HANDOFF_BYTES, parseHandoff, type Handoff } from './handoff';
import { lines } from './lines';
import type { StopOutcome } from './lease';
import { WorkerLog, type LogFormat } from './log';
import { SessionWorker, type Hold } from './session';
import { toolSettings, realWorkdir } from './index';
import { addSecret } from '../text/redact';

/**
 * `worker serve` exit code when the row is no longer its own: the session work token was refused (the row was
 * re-queued, taken by another worker or ended) or the worker that started it went away. Not in docs/behaviour.md's table,
 * whose 12 and 13 are a session's interrupted and waiting states.
 */
export const ROW_LOST_EXIT = 14;

export interface ServeOptions {
  workdir: string;
  /** `--max-idle`; undefined: the hand-off's. */
  maxIdleMs?: number;
  logFormat: LogFormat;
  bashTimeoutMs: number;
  /** Deadline of a file tool call (read, write, edit, glob, grep). */
  toolTimeoutMs: number;
  maxOutputChars: number;
  unrestrictedPaths: boolean;
}

export interface ServeDeps {
  stdin: InStream;
  stderr: OutStream;
  /** A client with the session work token, for the hand-off's base URL when none is configured. */
  clientFor: (handoff: Handoff) => Promise<ApiClient>;
  follow: Follow;
  env: Record<string, string | undefined>;
  /** Aborted on SIGINT/SIGTERM: the parent gave the row up, so tools stop and nothing more is written. */
  signal?: AbortSignal;
  clock?: Clock;
}

/** Holds a row by its token alone: the parent worker keeps the lease, so completing means "done serving". */
class TokenHold implements Hold {
  private readonly ctl = new AbortController();
  readonly intervalMs = 1000;
  readonly completion = { starting: 'session idle; handing the row back to the worker', done: 'done serving' };
  reason?: string;

  constructor(
    private readonly log: WorkerLog,
    private readonly fields: Record<string, string | number>,
    private readonly client: ApiClient,
    private readonly sessionId: string,
  ) {}

  get lost(): AbortSignal {
    return this.ctl.signal;
  }

  lose(reason: string): void {
    if (this.lost.aborted) return;
    this.reason = reason;
    this.log.warn('row lost; nothing more is written for it', { ...this.fields, reason });
    this.ctl.abort();
  }

  /**
   * Serving ends only when the session has nothing more to do: a turn that ends with input still queued
   * starts the next one at once, and ending here would cost the worker a restart of CMD (its stop gets 409).
   */
  async complete(): Promise<StopOutcome> {
    try {
      const [session, pending] = await Promise.all([sessions.get(this.client, this.sessionId), sessions.pending(this.client, this.sessionId)]);
      return session?.status === 'idle' && (pending?.items ?? []).length === 0 ? 'stopped' : 'busy';
    } catch {
      return 'failed';
    }
  }
}

/**
 * Serves exactly one hand-off (the first line of standard input) with the built-in tools: follows the session
 * with the token and answers its tool calls until the session is idle (after `--max-idle`). Later input lines
 * are the worker's control messages: `{"type":"stop"}` winds down (tools cancelled, their results written).
 * Exits {@link ROW_LOST_EXIT} when the token is refused or standard input closes (the worker is gone).
 */
export async function runServe(opts: ServeOptions, deps: ServeDeps): Promise<void> {
  const clock = deps.clock ?? systemClock;
  const log = new WorkerLog(deps.stderr, opts.logFormat, clock.now);
  const input = lines(deps.stdin, MAX_HANDOFF_BYTES);
  const first = await input.next();
  const handoff = parseHandoff(first.done ? undefined : first.value);
  addSecret(handoff.sessions_token);
  const workdir = await realWorkdir(opts.workdir);
  const { row } = handoff;
  const fields = { row: row.id, session: row.session_id, generation: row.generation };
  const client = await deps.clientFor(handoff);
  const hold = new TokenHold(log, fields, client, row.session_id);
  const tools = toolSettings(workdir, opts, deps.env);
  const maxIdleMs = opts.maxIdleMs ?? handoff.max_idle_ms ?? 0;
  const session = new SessionWorker(row.session_id, hold, { client, follow: deps.follow, log, clock, tools, maxIdleMs }, fields);
  log.info('serving the row', { ...fields, workdir, max_idle_ms: maxIdleMs });
  let windingDown = false;
  let finished = false;
  void session.done.then(() => (finished = true));
  const onSignal = () => hold.lose('stopped by a signal');
  deps.signal?.addEventListener('abort', onSignal, { once: true });
  if (deps.signal?.aborted) onSignal();
  void (async () => {
    for await (const line of input) {
      if (!line.cut && isStop(line.text)) {
        windingDown = true;
        log.info('asked to stop; cancelling tools', fields);
        session.end(false);
        return;
      }
    }
    if (!finished) hold.lose('standard input closed: the worker that started this is gone');
  })().catch(() => hold.lose('standard input failed'));
  void session.serve();
  const completed = await session.done;
  deps.signal?.removeEventListener('abort', onSignal);
  if (!completed && !hold.lost.aborted) await session.cancelTools();
  if (hold.lost.aborted && !windingDown) {
    if (deps.signal?.aborted) return;
    throw new ExitCodeError(ROW_LOST_EXIT, `the row is no longer this worker's: ${hold.reason}`);
  }
  if (!completed) log.info('stopped', fields);
}

function isStop(line: string): boolean {
  try {
    return (JSON.parse(line) as { type?: unknown })?.type === 'stop';
  } catch {
    return false;
  }
}
