import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { backoffMs } from '../api/backoff';
import { UsageError } from '../runtime/errors';
import { findProgram, isExecutableFile } from '../fs/find-program';
import type { Clock } from './clock';
import { handoffLine, STOP_LINE, type Handoff } from './handoff';
import { lines } from './lines';
import type { WorkerLog } from './log';
import type { WorkerMetrics } from './metrics';
import { stopForShutdown, type HeldRow, type RowServer } from './row';

export interface OnWorkOptions {
  /** The command and its arguments, resolved by {@link resolveCommand}. */
  argv: string[];
  /** Environment of CMD before the SVC_* row variables are added (the worker's own credentials removed). */
  env: Record<string, string | undefined>;
  cwd: string;
  baseUrl: string;
  apiVersion: string;
  maxIdleMs: number;
  /** SIGTERM → SIGKILL of CMD's process group. */
  killGraceMs: number;
  /** How long a wind-down (shutdown) may take before CMD is ended like an abandoned one. */
  windDownMs: number;
  /** A run shorter than this that leaves the session busy counts as a fast failure. */
  fastFailMs: number;
  /** Fast failures in a row after which the row is released for another worker. */
  maxFastFailures: number;
}

export interface OnWorkDeps {
  log: WorkerLog;
  clock: Clock;
  metrics?: WorkerMetrics;
}

export const DEFAULT_ON_WORK = { killGraceMs: 5_000, windDownMs: 60_000, fastFailMs: 10_000, maxFastFailures: 5 };
/** Longest line of CMD's output copied to the log; a longer one is cut there and the rest of it dropped (a log line, not a data channel). */
export const MAX_OUTPUT_LINE_BYTES = 64 * 1024;
const RESTART_BASE_MS = 500;
const RESTART_CAP_MS = 30_000;

/**
 * `--on-work CMD`: an executable and its arguments split on spaces (no shell). Resolved before the first poll:
 * a command that cannot be started is a usage error (exit 2), never a loop of failed claims.
 */
export function resolveCommand(cmd: string, env: Record<string, string | undefined>, cwd: string): string[] {
  const argv = cmd.trim().split(/\s+/).filter(Boolean);
  if (argv.length === 0) throw new UsageError('--on-work needs a command');
  const [program] = argv;
  const path = program.includes('/') ? resolve(cwd, program) : findProgram(program, env);
  if (path && isExecutableFile(path)) return [path, ...argv.slice(1)];
  throw new UsageError(`--on-work: ${program} ${program.includes('/') ? 'is not an executable file' : 'is not an executable on PATH'}`);
}

/**
 * Serves each held row by running CMD: this process keeps the lease (ack, heartbeats, stop) while CMD follows
 * the session and runs its tools. CMD exiting ends the row if the session is idle; if the session still has
 * work (the stop answers 409) CMD is started again, backed off when it keeps failing fast, and after
 * `maxFastFailures` the row is released: heartbeats stop, the lease lapses and the platform re-queues it
 *. A lost lease ends CMD's whole process group at once and nothing more is written for the row.
 */
export function onWork(opts: OnWorkOptions, deps: OnWorkDeps): RowServer {
  return async (row, shutdown) => {
    const { lease, fields, item } = row;
    const prefix = { row: item.id, session: item.session_id };
    let fastFailures = 0;
    for (let attempt = 1; ; attempt++) {
      if (lease.lost.aborted) return 'abandoned';
      const started = deps.clock.now();
      const child = startCommand(opts, row, (line) => deps.log.passthrough(prefix, line));
      deps.log.info('command started', { ...fields, pid: child.pid, attempt });
      void child.exited.then((exit) => deps.metrics?.commandExited(exit, (deps.clock.now() - started) / 1000));
      const ended = await firstOf(child.exited, lease.lost, shutdown);
      if (ended === 'lost') {
        await child.end(opts.killGraceMs);
        deps.log.info('command ended: the lease was lost', fields);
        return 'abandoned';
      }
      if (ended === 'shutdown') {
        const windDown = async () => {
          child.requestStop();
          if ((await firstOf(child.exited, AbortSignal.timeout(opts.windDownMs))) !== 'exited') await child.end(opts.killGraceMs);
        };
        return (await stopForShutdown(lease, windDown, deps.log, fields)) ? 'stopped' : 'abandoned';
      }
      const exit = await child.exited;
      deps.log.info('command exited', { ...fields, ...exit });
      const stop = await lease.complete();
      if (stop === 'stopped') {
        deps.log.info('row completed', fields);
        return 'completed';
      }
      if (stop === 'lost') return 'abandoned';
      // Busy (409) or no answer: the session still has work and the lease is still ours.
      fastFailures = deps.clock.now() - started < opts.fastFailMs ? fastFailures + 1 : 0;
      if (fastFailures >= opts.maxFastFailures) {
        deps.log.error('command keeps failing; releasing the row for another worker', { ...fields, failures: fastFailures });
        lease.lose('released: the command keeps failing');
        return 'abandoned';
      }
      const retryMs = fastFailures === 0 ? 0 : backoffMs(fastFailures, deps.clock.random, RESTART_BASE_MS, RESTART_CAP_MS);
      deps.log.warn('command exited while the session has work; restarting it', { ...fields, ...exit, failures: fastFailures, retry_ms: retryMs });
      await deps.clock.delay(retryMs, AbortSignal.any([lease.lost, shutdown]));
      if (shutdown.aborted && !lease.lost.aborted) return (await stopForShutdown(lease, async () => undefined, deps.log, fields)) ? 'stopped' : 'abandoned';
    }
  };
}

interface Exit {
  exit_code?: number;
  signal?: string;
  error?: string;
}

interface Running {
  pid?: number;
  exited: Promise<Exit>;
  requestStop(): void;
  /** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once CMD has exited. */
  end(graceMs: number): Promise<void>;
}

function startCommand(opts: OnWorkOptions, { item, token }: HeldRow, out: (line: string) => void): Running {
  const env = {
    ...opts.env,
    SVC_WORK_ID: item.id,
    SVC_SESSION_ID: item.session_id,
    SVC_ENVIRONMENT_ID: item.environment_id,
    SVC_WORK_GENERATION: String(item.generation),
    SVC_BASE_URL: opts.baseUrl,
    SVC_API_VERSION: opts.apiVersion,
  };
  // Its own process group, so a lost lease ends everything CMD started (a container client, a sudo, their children).
  const child = spawn(opts.argv[0], opts.argv.slice(1), { cwd: opts.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<Exit>((res) => {
    child.once('error', (e) => res({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
    child.once('exit', (code, signal) => res(signal ? { signal } : { exit_code: code ?? undefined }));
  });
  void pipeLines(child.stdout!, out);
  void pipeLines(child.stderr!, out);
  // CMD may exit without reading its input: a closed pipe is not the worker's failure.
  child.stdin!.on('error', () => undefined);
  const handoff: Handoff = {
    type: 'svc.work_handoff',
    row: item,
    sessions_token: token,
    base_url: opts.baseUrl,
    api_version: opts.apiVersion,
    max_idle_ms: opts.maxIdleMs,
  };
  child.stdin!.write(handoffLine(handoff));
  return {
    pid: child.pid,
    exited,
    requestStop: () => void child.stdin!.write(STOP_LINE),
    end: async (graceMs) => {
      signalGroup(child, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      // Whatever CMD left behind in its group goes too.
      signalGroup(child, 'SIGKILL');
    },
  };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is already gone
  }
}

async function pipeLines(stream: NodeJS.ReadableStream & AsyncIterable<Buffer>, out: (line: string) => void): Promise<void> {
  try {
    for await (const line of lines(stream, MAX_OUTPUT_LINE_BYTES))
      out(line.cut ? `${line.text} [line cut at ${MAX_OUTPUT_LINE_BYTES} bytes; the rest of it is dropped]` : line.text);
  } catch {
    // the pipe broke with CMD: nothing more to copy
  }
}

/** Which came first: CMD's exit, the lease being lost, or the worker shutting down. */
async function firstOf(exited: Promise<Exit>, lost: AbortSignal, shutdown?: AbortSignal): Promise<'exited' | 'lost' | 'shutdown'> {
  if (lost.aborted) return 'lost';
  if (shutdown?.aborted) return 'shutdown';
  const cleanup: Array<() => void> = [];
  const on = (signal: AbortSignal, what: 'lost' | 'shutdown') =>
    new Promise<'lost' | 'shutdown'>((res) => {
      const f = () => res(what);
      signal.addEventListener('abort', f, { once: true });
      cleanup.push(() => signal.removeEventListener('abort', f));
    });
  try {
    return await Promise.race([exited.then(() => 'exited' as const), on(lost, 'lost'), ...(shutdown ? [on(shutdown, 'shutdown')] : [])]);
  } finally {
    for (const c of cleanup) c();
  }
}
