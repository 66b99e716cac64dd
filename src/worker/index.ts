import type { SessionDeps } from './session';
import { realpath, stat } from 'node:fs/promises';
import type { ApiClient } from '../api/client';
import { MAX_BLOCK_MS, type WorkItem } from '../api/work';
import type { Follow } from '../api/stream/types';
import { ExitCodeError, InterruptedError, UsageError } from '../runtime/errors';
import type { HostPort, HttpStatusServer } from '../net/serve-http';
import { systemClock, type Clock } from './clock';
import { WorkerLog, type LogFormat } from './log';
import { noMetrics, type RowEnd, type WorkerMetrics } from './metrics';
import { pollLoop } from './poll';
import { DEFAULT_ON_WORK, onWork, type OnWorkOptions } from './on-work';
import { inProcess, serveRow, type HeldRow, type RowServer } from './row';
import { provideSkills } from './skills';
import type { OutStream } from '../runtime/io';
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
  /**
   * `--grace`: after SIGTERM, how long the rows in flight may take to finish before they are handed back; after
   * Ctrl-C, how long the wind-down (results written, rows stopped) may take. Undefined: {@link shutdownGraceMs}.
   */
  shutdownGraceMs?: number;
  /** `--metrics-addr`: serve /metrics, /healthz and /readyz there. */
  metricsAddr?: HostPort;
  /** /readyz turns 503 after this long without a successful poll; undefined: READY_STALE_MS (10 s). */
  readyStaleMs?: number;
  /** The long poll's wait (block_ms); undefined: the longest the service allows. */
  pollBlockMs?: number;
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
  /**
   * Aborted on the first SIGINT/SIGTERM. Its reason `SIGTERM` drains: no more polls, the rows in flight finish within
   * the grace time or are handed back, exit 0. Any other reason stops now: tools cancelled, their results written,
   * rows stopped; `SIGINT` then ends in exit 130.
   */
  signal?: AbortSignal;
  stderr: OutStream;
  /** The environment `bash` commands get (the worker's own credentials are removed from it). */
  env: Record<string, string | undefined>;
  clock?: Clock;
  /** Told of each tool the built-in tools run (not with --on-work, whose process runs them). */
  toolRun?: SessionDeps['toolRun'];
}

/** The self-hosted worker (`svc worker run`): polls the environment's queue and serves the rows it claims. */
export async function runWorker(opts: WorkerOptions, deps: WorkerDeps): Promise<void> {
  const clock = deps.clock ?? systemClock;
  const log = new WorkerLog(deps.stderr, opts.logFormat, clock.now);
  addSecret(deps.environmentKey);
  const workdir = await realWorkdir(opts.workdir);
  const signal = deps.signal ?? new AbortController().signal;
  const blockMs = opts.pollBlockMs ?? MAX_BLOCK_MS;
  const status = opts.metricsAddr ? await serveStatus(opts.metricsAddr, clock, blockMs, opts.readyStaleMs, log) : undefined;
  const metrics: WorkerMetrics = status?.metrics ?? noMetrics;
  try {
    await work(opts, deps, { clock, log, workdir, signal, blockMs, metrics });
  } finally {
    await status?.server.close();
  }
}

async function serveStatus(at: HostPort, clock: Clock, blockMs: number, staleMs: number | undefined, log: WorkerLog) {
  // Loaded only with --metrics-addr: no other run pays for the metrics.
  const [{ WorkerStatus }, { serveWorkerStatus }] = await Promise.all([import('./status'), import('./status-server')]);
  const metrics = new WorkerStatus({ now: clock.now, staleMs, blockMs });
  const server: HttpStatusServer = await serveWorkerStatus(at, metrics);
  log.info('metrics and health served', {
    address: `${server.address.host}:${server.address.port}`,
    metrics: `${server.url}/metrics`,
    healthz: `${server.url}/healthz`,
    readyz: `${server.url}/readyz`,
  });
  return { metrics, server };
}

interface Run {
  clock: Clock;
  log: WorkerLog;
  workdir: string;
  signal: AbortSignal;
  blockMs: number;
  metrics: WorkerMetrics;
}

async function work(opts: WorkerOptions, deps: WorkerDeps, { clock, log, workdir, signal, blockMs, metrics }: Run): Promise<void> {
  /** Ctrl-C: cancel tools, write their results, stop the rows. */
  const stopNow = new AbortController();
  /** SIGTERM: no more claims; idle rows end at once. */
  const draining = new AbortController();
  /** The drain's grace time is over: rows still busy are handed back. */
  const handBack = new AbortController();
  const tools = toolSettings(workdir, opts, deps.env);
  const server: RowServer = opts.onWork
    ? onWork(
        { ...DEFAULT_ON_WORK, ...opts.onWork, env: tools.env, cwd: workdir, baseUrl: opts.baseUrl, apiVersion: opts.apiVersion, maxIdleMs: opts.maxIdleMs },
        { log, clock, metrics },
      )
    : inProcess({ follow: deps.follow, log, clock, tools, maxIdleMs: opts.maxIdleMs, metrics, draining: draining.signal, toolRun: deps.toolRun });
  const api = deps.api;
  addSecret(deps.apiKey);
  const prepare = api
    ? (row: HeldRow) => provideSkills({ api, session: row.client, sessionId: row.item.session_id, workdir, log, fields: row.fields })
    : undefined;
  if (!api) log.info('no API key: the skill packages of sessions are not fetched');
  const rowDeps = { clientFor: deps.clientFor, log, clock, heartbeatMs: opts.heartbeatMs, prepare, serve: server, metrics };
  log.info('worker started', {
    worker_id: opts.workerId,
    environment: opts.environmentId,
    concurrency: opts.concurrency,
    workdir,
    once: opts.once || undefined,
    on_work: opts.onWork?.argv.join(' '),
  });
  const graceMs = opts.shutdownGraceMs ?? shutdownGraceMs(opts);
  let held = 0;
  let graceOver!: () => void;
  const outOfGrace = new Promise<'grace over'>((resolve) => (graceOver = () => resolve('grace over')));
  const timers: NodeJS.Timeout[] = [];
  const after = (ms: number, f: () => void) => timers.push(setTimeout(f, ms).unref());
  const onSignal = () => {
    if (signal.reason === 'SIGTERM') {
      metrics.draining();
      draining.abort();
      log.info('draining: no more polls; the rows in flight finish within the grace time or are handed back', { grace_ms: graceMs, rows: held });
      after(graceMs, () => {
        handBack.abort();
        // Handing back is local (tools stopped, CMD ended); if even that hangs, the process still ends.
        after(HAND_BACK_MS + (opts.onWork ? { ...DEFAULT_ON_WORK, ...opts.onWork }.killGraceMs : 0), graceOver);
      });
      return;
    }
    stopNow.abort();
    log.info('shutting down: no more polling; cancelling tools and stopping rows', { grace_ms: graceMs });
    // Whatever the wind-down waits on (a service that stops answering), the worker ends within its grace time.
    after(graceMs, graceOver);
  };
  signal.addEventListener('abort', onSignal, { once: true });
  const serve = async (item: WorkItem): Promise<RowEnd> => {
    metrics.rowClaimed();
    held++;
    let end: RowEnd = 'failed';
    try {
      end = await serveRow(item, rowDeps, stopNow.signal, handBack.signal);
      return end;
    } finally {
      held--;
      metrics.rowEnded(end);
    }
  };
  try {
    const loop = pollLoop(
      { environmentId: opts.environmentId, workerId: opts.workerId, concurrency: opts.concurrency, once: opts.once, blockMs },
      { client: deps.clientFor(deps.environmentKey), log, clock, serve, metrics },
      signal,
    );
    if ((await Promise.race([loop, outOfGrace])) === 'grace over') {
      log.error('grace time over; exiting with rows still held: their leases lapse and the service re-queues them', { grace_ms: graceMs });
      throw new ExitCodeError(130, `the worker did not wind down within its grace time of ${graceMs} ms`);
    }
  } finally {
    for (const t of timers) clearTimeout(t);
    signal.removeEventListener('abort', onSignal);
  }
  log.info('worker stopped', { worker_id: opts.workerId });
  // Ctrl-C ends in 130 once the rows are stopped; a drain (SIGTERM) that finished or handed its rows back is a success.
  if (signal.reason === 'SIGINT') throw new InterruptedError();
}

/** After the drain's rows are handed back, how long the local wind-down may take before the process ends anyway. */
const HAND_BACK_MS = 5_000;

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
