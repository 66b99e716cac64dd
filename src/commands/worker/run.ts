import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { Ctx } from '../../context';
import { ApiError } from '../../api/errors';
import { describeOrigin } from '../../config/validate';
import { ExitCodeError, NoCredentialError, NoEnvironmentKeyError, UsageError } from '../../errors';
import type { Opts } from '../../cli/action';
import type { LogFormat } from '../../worker/log';
import type { WorkerOptions } from '../../worker/index';
import { resolveCommand } from '../../worker/on-work';

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const MAX_OUTPUT_CHARS = 30_000;
/** A file tool that takes longer is stuck (a slow mount, a pattern that never ends): its call ends in an error result. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** `svc worker run` options → WorkerOptions; every check happens before any request. */
function workerOptions(ctx: Ctx, opts: Opts): WorkerOptions {
  const cwd = ctx.io.cwd;
  const concurrency = int(opts.concurrency ?? '1', '--concurrency', 1, 1000);
  if (opts.once && concurrency !== 1) throw new UsageError('--once serves one row; it cannot be combined with --concurrency');
  const heartbeat = opts.heartbeatInterval === undefined ? undefined : seconds(opts.heartbeatInterval, '--heartbeat-interval');
  const workerId = opts.workerId ?? `${hostname()}-${randomBytes(3).toString('hex')}`;
  if (String(workerId).trim() === '') throw new UsageError('--worker-id must not be empty');
  if (!/^[\x20-\x7e]+$/.test(workerId)) throw new UsageError('--worker-id may hold printable ASCII characters only (it is sent as a header)');
  return {
    environmentId: opts.environment,
    workerId,
    concurrency,
    once: Boolean(opts.once),
    workdir: resolve(cwd, opts.workdir ?? '.'),
    heartbeatMs: heartbeat,
    logFormat: (opts.logFormat ?? 'text') as LogFormat,
    bashTimeoutMs: DEFAULT_BASH_TIMEOUT_MS,
    toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    maxOutputChars: MAX_OUTPUT_CHARS,
    maxIdleMs: maxIdle(opts.maxIdle),
    unrestrictedPaths: Boolean(opts.unrestrictedPaths),
    onWork: opts.onWork === undefined ? undefined : { argv: resolveCommand(String(opts.onWork), ctx.io.env, cwd) },
    baseUrl: ctx.settings.baseUrl.value,
    apiVersion: ctx.settings.apiVersion,
  };
}

export async function run(ctx: Ctx, _args: string[], opts: Opts): Promise<void> {
  const options = workerOptions(ctx, opts);
  const key = ctx.settings.environmentKey?.value;
  if (!key) throw new NoEnvironmentKeyError();
  const base = await ctx.client(key, undefined, { outliveSignal: true });
  // Both keys were checked when read (config/validate.ts): a malformed one is exit 4 before the first poll.
  const apiKey = ctx.settings.apiKey?.value;
  const [{ runWorker }, { follow }] = await Promise.all([import('../../worker/index'), import('../../api/stream/follow')]);
  const refused = (e: unknown) => {
    // Only polls use the work key (rows are held with their session tokens): a refusal here is the key's.
    if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 403)) return e;
    const s = ctx.settings;
    const where = describeOrigin(s.environmentKey!, { env: 'SVC_ENVIRONMENT_KEY', key: 'environment_key', profile: s.profile.value, file: s.configFile });
    const fix = s.environmentKey!.source === 'env' ? 'set SVC_ENVIRONMENT_KEY to' : 'run `svc config set environment_key - < key.txt` with';
    if (e.status === 401)
      return new NoCredentialError(`the environment work key from ${where} is not valid (${e.message}, status=401): ${fix} a work key of this environment`);
    // 403 keeps its exit code (5): the key is valid, for another environment.
    return new ExitCodeError(
      5,
      `the environment work key from ${where} may not serve environment ${options.environmentId} (${e.message}, status=403): ${fix} a work key of this environment`,
    );
  };
  await runWorker(options, {
    clientFor: (credential) => base.withCredential(credential),
    environmentKey: key,
    api: apiKey ? base.withCredential(apiKey) : undefined,
    apiKey,
    follow,
    signal: ctx.io.signal,
    stderr: ctx.io.stderr,
    env: ctx.io.env,
  }).catch((e: unknown) => {
    throw refused(e);
  });
}

/** `--max-idle`: 0, or a duration such as 30s or 5m. */
export function maxIdle(raw: string | undefined): number {
  if (raw === undefined || String(raw).trim() === '0') return 0;
  const n = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(String(raw).trim());
  if (!n) throw new UsageError(`--max-idle takes a duration such as 0, 30s, 5m or 1h (got "${raw}")`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[n[2] ?? 's']!;
  return Math.round(Number(n[1]) * unit);
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
