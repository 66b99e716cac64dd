import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { Ctx } from '../../context';
import { NoEnvironmentKeyError, UsageError } from '../../errors';
import type { Opts } from '../kit';
import type { LogFormat } from '../../worker/log';
import type { WorkerOptions } from '../../worker/index';

const DEFAULT_BASH_TIMEOUT_MS = 120_000;
const MAX_OUTPUT_CHARS = 30_000;

/** `svc worker run` options → WorkerOptions; every check happens before any request. */
function workerOptions(opts: Opts, cwd: string): WorkerOptions {
  const concurrency = int(opts.concurrency ?? '1', '--concurrency', 1, 1000);
  if (opts.once && concurrency !== 1) throw new UsageError('--once serves one row; it cannot be combined with --concurrency');
  const heartbeat = opts.heartbeatInterval === undefined ? undefined : seconds(opts.heartbeatInterval, '--heartbeat-interval');
  const workerId = opts.workerId ?? `${hostname()}-${randomBytes(3).toString('hex')}`;
  if (String(workerId).trim() === '') throw new UsageError('--worker-id must not be empty');
  return {
    environmentId: opts.environment,
    workerId,
    concurrency,
    once: Boolean(opts.once),
    workdir: resolve(cwd, opts.workdir ?? '.'),
    heartbeatMs: heartbeat,
    logFormat: (opts.logFormat ?? 'text') as LogFormat,
    bashTimeoutMs: DEFAULT_BASH_TIMEOUT_MS,
    maxOutputChars: MAX_OUTPUT_CHARS,
  };
}

export async function run(ctx: Ctx, _args: string[], opts: Opts): Promise<void> {
  const options = workerOptions(opts, ctx.io.cwd);
  const key = ctx.settings.environmentKey?.value;
  if (!key) throw new NoEnvironmentKeyError();
  const base = await ctx.client(key, undefined, { outliveSignal: true });
  const [{ runWorker }, { follow }] = await Promise.all([import('../../worker/index'), import('../../api/stream/follow')]);
  await runWorker(options, {
    clientFor: (credential) => base.withCredential(credential),
    environmentKey: key,
    follow,
    signal: ctx.io.signal,
    stderr: ctx.io.stderr,
    env: ctx.io.env,
  });
}

function int(raw: string, flag: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(String(raw).trim()) || n < min || n > max) throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

function seconds(raw: string, flag: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || String(raw).trim() === '') throw new UsageError(`${flag} must be a positive number of seconds, got "${raw}"`);
  return Math.round(n * 1000);
}
