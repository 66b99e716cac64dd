import { hostname } from 'node:os';
import { flagTable, type FlagsOf } from '../../cli/flags';
import { UsageError } from '../../runtime/errors';
import { bounded, parseDuration } from '../../text/duration';
import { parseHostPort, type HostPort } from '../../net/host-port';
import type { LogFormat } from '../../worker/log';

const WORKDIR_HELP =
  'folder the tools start in (default: the current folder). It confines the file tools (read, write, edit, glob, grep) ' +
  'only: `bash` starts there but can reach anything this user can. Isolate bash with --on-work and a container or another user';

/** The flags of the built-in tools and the log: `worker serve`'s all, and `worker run`'s last. */
export const WORKER_SERVE_FLAGS = flagTable({
  workdir: { flags: '--workdir <dir>', description: WORKDIR_HELP },
  maxIdle: {
    flags: '--max-idle <duration>',
    description: 'keep a row this long after its session goes idle, so a follow-up message needs no new claim (e.g. 30s, 5m; default 0)',
  },
  unrestrictedPaths: { flags: '--unrestricted-paths', description: 'let the file tools reach paths outside --workdir (bash is never confined)' },
  logFormat: { flags: '--log-format <format>', description: 'stderr log lines', choices: ['text', 'json'], default: 'text' },
});

/** `worker run`'s flags: its own, then the tools'. */
export const WORKER_RUN_FLAGS = flagTable({
  environment: {
    flags: '--environment <id>',
    description: "self-hosted environment ID (key: SVC_ENVIRONMENT_KEY or the profile's environment_key)",
    required: true,
  },
  concurrency: { flags: '--concurrency <n>', description: 'rows served at once', default: '1' },
  once: { flags: '--once', description: 'serve one row to completion, then exit' },
  onWork: {
    flags: '--on-work <cmd>',
    description:
      'run CMD (an executable and its arguments, split on spaces, no shell) for each claimed row; this worker keeps the lease. ' +
      'CMD gets SVC_WORK_ID, SVC_SESSION_ID, SVC_ENVIRONMENT_ID, SVC_WORK_GENERATION, SVC_BASE_URL, SVC_API_VERSION and, on standard input only, ' +
      'the hand-off JSON with the session token (e.g. a script running `svc worker serve` in a container)',
  },
  workerId: { flags: '--worker-id <name>', description: 'name sent with each poll (default: host name and a random suffix)' },
  heartbeatInterval: { flags: '--heartbeat-interval <seconds>', description: 'seconds between heartbeats (default: a third of the lease)' },
  metricsAddr: {
    flags: '--metrics-addr <host:port>',
    description:
      'serve /metrics (Prometheus text), /healthz and /readyz (503 after 10 s without a successful poll, and while draining) on HOST:PORT; port 0 picks a free one, logged at start',
  },
  grace: {
    flags: '--grace <duration>',
    description:
      'after SIGTERM, how long the rows in flight may take to finish before they are handed back (their leases lapse and the service re-queues them); ' +
      'after Ctrl-C, how long the wind-down may take (default 30s; with --on-work 95s)',
  },
  otlpEndpoint: {
    flags: '--otlp-endpoint <url>',
    description:
      "post a span for each tool run here (OTLP/HTTP JSON, to this collector's base URL + /v1/traces), in the session's trace under the hosted tool call",
  },
  ...WORKER_SERVE_FLAGS,
});
type WorkerFlags = FlagsOf<typeof WORKER_RUN_FLAGS>;

/** The flags of the built-in tools and the log, shared by `worker run` and `worker serve`. */
export interface ToolOptions {
  /** As given (default: the current folder); resolved against the working folder when the command runs. */
  workdir: string;
  /** `--max-idle`; undefined when not given (`run` keeps no row idle, `serve` takes the hand-off's). */
  maxIdleMs?: number;
  unrestrictedPaths: boolean;
  logFormat: LogFormat;
}

/** `svc worker run`: the queue to serve and how. */
export interface WorkerRunOptions extends ToolOptions {
  environmentId: string;
  workerId: string;
  concurrency: number;
  once: boolean;
  /** undefined: a third of each row's lease. */
  heartbeatMs?: number;
  /** `--on-work CMD` as given: found on PATH or under the working folder when the command runs. */
  onWork?: string;
  /** `--metrics-addr HOST:PORT`: /metrics, /healthz, /readyz. */
  metricsAddr?: HostPort;
  /** `--grace D`; undefined: the worker's default (worker/index.ts shutdownGraceMs). */
  graceMs?: number;
  /** `--otlp-endpoint URL`: the collector's base URL for the spans of the tools run here. */
  otlpEndpoint?: string;
}

/** `svc worker serve`: one hand-off from standard input, served with the built-in tools. */
export type WorkerServeOptions = ToolOptions;

/** `--workdir`, `--max-idle`, `--unrestricted-paths` and `--log-format`. */
export function parseToolOptions(flags: FlagsOf<typeof WORKER_SERVE_FLAGS>): ToolOptions {
  const maxIdleMs = flags.maxIdle === undefined ? undefined : maxIdle(flags.maxIdle);
  return {
    workdir: flags.workdir ?? '.',
    maxIdleMs,
    unrestrictedPaths: Boolean(flags.unrestrictedPaths),
    // Commander refuses any value but its choices (text, the default, or json).
    logFormat: flags.logFormat === 'json' ? 'json' : 'text',
  };
}

/** `svc worker run`'s flags, checked before any request (exit 2). */
export function parseWorkerRun(_args: string[], flags: WorkerFlags): WorkerRunOptions {
  const environmentId = flags.environment;
  if (environmentId === undefined) throw new UsageError('--environment is required: the self-hosted environment whose queue to serve');
  const concurrency = int(flags.concurrency ?? '1', '--concurrency', 1, 1000);
  if (flags.once && concurrency !== 1) throw new UsageError('--once serves one row; it cannot be combined with --concurrency');
  const heartbeatMs = flags.heartbeatInterval === undefined ? undefined : seconds(flags.heartbeatInterval, '--heartbeat-interval');
  const workerId = flags.workerId ?? defaultWorkerId();
  if (workerId.trim() === '') throw new UsageError('--worker-id must not be empty');
  if (!/^[\x20-\x7e]+$/.test(workerId)) throw new UsageError('--worker-id may hold printable ASCII characters only (it is sent as a header)');
  const tools = parseToolOptions(flags);
  const onWork = flags.onWork;
  // CMD runs the tools, in its own process: `--unrestricted-paths` belongs to the `svc worker serve` it starts.
  if (onWork !== undefined && tools.unrestrictedPaths)
    throw new UsageError('--unrestricted-paths applies to the built-in tools, and with --on-work CMD runs the tools: give it to `svc worker serve` in CMD');
  const metricsAddr = flags.metricsAddr === undefined ? undefined : parseHostPort(flags.metricsAddr, '--metrics-addr');
  const graceMs = flags.grace === undefined ? undefined : parseDuration(flags.grace, '--grace');
  const otlpEndpoint = flags.otlpEndpoint;
  if (otlpEndpoint !== undefined && onWork !== undefined)
    throw new UsageError('--otlp-endpoint traces the built-in tools, and with --on-work CMD runs the tools');
  if (otlpEndpoint !== undefined && otlpEndpoint.trim() === '') throw new UsageError("--otlp-endpoint takes the collector's base URL");
  return { ...tools, environmentId, workerId, concurrency, once: Boolean(flags.once), heartbeatMs, onWork, metricsAddr, graceMs, otlpEndpoint };
}

export function parseWorkerServe(_args: string[], flags: FlagsOf<typeof WORKER_SERVE_FLAGS>): WorkerServeOptions {
  return parseToolOptions(flags);
}

/**
 * The host name and a random suffix, so two workers on one host differ. From the global web crypto, which loads on
 * this first use, not with this module (an import of node:crypto costs every command that loads it).
 */
function defaultWorkerId(): string {
  return `${hostname()}-${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(3))).toString('hex')}`;
}

/** `--max-idle`: 0, or a duration such as 30s or 5m. */
function maxIdle(raw: string): number {
  if (raw.trim() === '0') return 0;
  const n = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  if (!n) throw new UsageError(`--max-idle takes a duration such as 0, 30s, 5m or 1h (got "${raw}")`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[n[2] ?? 's']!;
  return bounded(Math.round(Number(n[1]) * unit), '--max-idle');
}

function int(raw: string, flag: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < min || n > max) throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

function seconds(raw: string, flag: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || raw.trim() === '') throw new UsageError(`${flag} must be a positive number of seconds, got "${raw}"`);
  return bounded(Math.round(n * 1000), flag);
}
