import { realpath, stat } from 'node:fs/promises';
import type { ApiClient } from '../api/client';
import { MAX_BLOCK_MS } from '../api/work';
import type { Follow } from '../api/stream/types';
import { ExitCodeError, UsageError } from '../errors';
import { systemClock, type Clock } from './clock';
import { WorkerLog, type LogFormat } from './log';
import { pollLoop } from './poll';
import { DEFAULT_ON_WORK, onWork, type OnWorkOptions } from './on-work';
import { inProcess, serveRow, type HeldRow, type RowServer } from './row';
import { provideSkills } from './skills';
import type { OutStream } from '../io';
import { addSecret } from '../text/redact';
import type { ToolContext } from './tools/context';

export interface WorkerOptions {
  environmentId: string;
  workerId: string;
  concurrency: number;
  once: boolean;
  workdir: string;
  /** Heartbeat interval; undefined: a third of each row's lease. */
  heartbeatMs?: number;
  logFormat: LogFormat;
  bashTimeoutMs: number;
  /** Deadline of a file tool call (read, write, edit, glob, grep). */
  toolTimeoutMs: number;
  maxOutputChars: number;
  /** `--max-idle`: an idle session keeps its row this long before it is completed. */
  maxIdleMs: number;
  unrestrictedPaths: boolean;
  /** After the first signal, how long the wind-down (results written, rows stopped) may take; undefined: {@link shutdownGraceMs}. */
  shutdownGraceMs?: number;
  /** `--on-work CMD`: CMD serves each row while this process keeps the lease. */
  onWork?: Pick<OnWorkOptions, 'argv'> & Partial<OnWorkOptions>;
  baseUrl: string;
  apiVersion: string;
}

export interface WorkerDeps {
  /** A client for a credential; its requests are not tied to the shutdown signal, so results still go out. */
  clientFor: (credential: string) => ApiClient;
  environmentKey: string;
  /** A client with the API key, when one is configured: it fetches the sessions' skill packages. */
  api?: ApiClient;
  apiKey?: string;
  follow: Follow;
  /** Aborted on the first SIGINT/SIGTERM: stop polling, cancel tools, write their results, stop each row. */
  signal?: AbortSignal;
  stderr: OutStream;
  /** The environment `bash` commands get (the worker's own credentials are removed from it). */
  env: Record<string, string | undefined>;
  clock?: Clock;
}

/** The self-hosted worker (`svc worker run`): polls the environment's queue and serves the rows it claims. */
export async function runWorker(opts: WorkerOptions, deps: WorkerDeps): Promise<void> {
  const clock = deps.clock ?? systemClock;
  const log = new WorkerLog(deps.stderr, opts.logFormat, clock.now);
  addSecret(deps.environmentKey);
  const workdir = await realWorkdir(opts.workdir);
  const signal = deps.signal ?? new AbortController().signal;
  const tools = toolSettings(workdir, opts, deps.env);
  const server: RowServer = opts.onWork
    ? onWork(
        { ...DEFAULT_ON_WORK, ...opts.onWork, env: tools.env, cwd: workdir, baseUrl: opts.baseUrl, apiVersion: opts.apiVersion, maxIdleMs: opts.maxIdleMs },
        { log, clock },
      )
    : inProcess({ follow: deps.follow, log, clock, tools, maxIdleMs: opts.maxIdleMs });
  const api = deps.api;
  addSecret(deps.apiKey);
  const prepare = api
    ? (row: HeldRow) => provideSkills({ api, session: row.client, sessionId: row.item.session_id, workdir, log, fields: row.fields })
    : undefined;
  if (!api) log.info('no API key: the skill packages of sessions are not fetched');
  const rowDeps = { clientFor: deps.clientFor, log, clock, heartbeatMs: opts.heartbeatMs, prepare, serve: server };
  log.info('worker started', {
    worker_id: opts.workerId,
    environment: opts.environmentId,
    concurrency: opts.concurrency,
    workdir,
    once: opts.once || undefined,
    on_work: opts.onWork?.argv.join(' '),
  });
  const graceMs = opts.shutdownGraceMs ?? shutdownGraceMs(opts);
  let graceOver!: () => void;
  const outOfGrace = new Promise<'grace over'>((resolve) => (graceOver = () => resolve('grace over')));
  let timer: NodeJS.Timeout | undefined;
  const onSignal = () => {
    log.info('shutting down: no more polling; cancelling tools and stopping rows', { grace_ms: graceMs });
    // Whatever the wind-down waits on (a service that stops answering), the worker ends within its grace time.
    timer = setTimeout(graceOver, graceMs);
    timer.unref();
  };
  signal.addEventListener('abort', onSignal, { once: true });
  try {
    const loop = pollLoop(
      { environmentId: opts.environmentId, workerId: opts.workerId, concurrency: opts.concurrency, once: opts.once, blockMs: MAX_BLOCK_MS },
      { client: deps.clientFor(deps.environmentKey), log, clock, serve: (item) => serveRow(item, rowDeps, signal) },
      signal,
    );
    if ((await Promise.race([loop, outOfGrace])) === 'grace over') {
      log.error('grace time over; exiting with rows still held: their leases lapse and the service re-queues them', { grace_ms: graceMs });
      throw new ExitCodeError(130, `the worker did not wind down within its grace time of ${graceMs} ms`);
    }
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onSignal);
  }
  log.info('worker stopped', { worker_id: opts.workerId });
}

/** In-process: tools stop at once, then results and stops are a few requests. With --on-work: CMD's wind-down and kill come first. */
const GRACE_MS = 30_000;

export function shutdownGraceMs(opts: Pick<WorkerOptions, 'onWork'>): number {
  if (!opts.onWork) return GRACE_MS;
  const { windDownMs, killGraceMs } = { ...DEFAULT_ON_WORK, ...opts.onWork };
  return windDownMs + killGraceMs + GRACE_MS;
}

export async function realWorkdir(dir: string): Promise<string> {
  try {
    const real = await realpath(dir);
    if ((await stat(real)).isDirectory()) return real;
  } catch {
    // reported below
  }
  throw new UsageError(`--workdir ${dir} is not a directory`);
}

/** What every tool call of this worker runs with, but its signal. */
export function toolSettings(
  workdir: string,
  opts: Pick<ToolContext, 'bashTimeoutMs' | 'toolTimeoutMs' | 'maxOutputChars' | 'unrestrictedPaths'>,
  env: Record<string, string | undefined>,
): Omit<ToolContext, 'signal'> {
  const { bashTimeoutMs, toolTimeoutMs, maxOutputChars, unrestrictedPaths } = opts;
  return { workdir, env: toolEnv(env), bashTimeoutMs, toolTimeoutMs, maxOutputChars, unrestrictedPaths };
}

/** Tool commands never see the worker's credentials (SVC_ENVIRONMENT_KEY, SVC_API_KEY, …). */
export function toolEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('SVC_')));
}
