import { resolve } from 'node:path';
import type { Ctx } from '../../runtime/context';
import { ApiError } from '../../api/errors';
import { describeOrigin } from '../../config/validate';
import { ExitCodeError, NoCredentialError, NoEnvironmentKeyError } from '../../runtime/errors';
import type { WorkerOptions } from '../../worker/index';
import { resolveCommand } from '../../worker/on-work';
import type { WorkerRunOptions } from './parse';
import { USER_AGENT } from '../../version';

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const MAX_OUTPUT_CHARS = 30_000;
/** A file tool that takes longer is stuck (a slow mount, a pattern that never ends): its call ends in an error result. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** The engine's options: the parsed flags, placed in the working folder and its PATH, with the service's settings. */
function workerOptions(ctx: Ctx, o: WorkerRunOptions): WorkerOptions {
  const cwd = ctx.io.cwd;
  return {
    environmentId: o.environmentId,
    workerId: o.workerId,
    concurrency: o.concurrency,
    once: o.once,
    workdir: resolve(cwd, o.workdir),
    heartbeatMs: o.heartbeatMs,
    logFormat: o.logFormat,
    bashTimeoutMs: DEFAULT_BASH_TIMEOUT_MS,
    toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    maxOutputChars: MAX_OUTPUT_CHARS,
    maxIdleMs: o.maxIdleMs ?? 0,
    unrestrictedPaths: o.unrestrictedPaths,
    onWork: o.onWork === undefined ? undefined : { argv: resolveCommand(o.onWork, ctx.io.env, cwd) },
    baseUrl: ctx.settings.baseUrl.value,
    apiVersion: ctx.settings.apiVersion,
    metricsAddr: o.metricsAddr,
    shutdownGraceMs: o.graceMs,
  };
}

export async function runWorkerRun(ctx: Ctx, o: WorkerRunOptions): Promise<void> {
  const options = workerOptions(ctx, o);
  const key = ctx.settings.environmentKey?.value;
  if (!key) throw new NoEnvironmentKeyError();
  const base = await ctx.client(key, undefined, { outliveSignal: true });
  // Both keys were checked when read (config/validate.ts): a malformed one is exit 4 before the first poll.
  const apiKey = ctx.settings.apiKey?.value;
  const [{ runWorker }, { follow }] = await Promise.all([import('../../worker/index'), import('../../api/stream/resumable')]);
  const spans = o.otlpEndpoint === undefined ? undefined : await traceTools(ctx, o.otlpEndpoint, o.workerId);
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
    toolRun: spans?.toolRun,
  })
    .catch((e: unknown) => {
      throw refused(e);
    })
    .finally(() => spans?.flush());
}

/** `--otlp-endpoint`: the tools' spans, posted as each call ends (trace/worker.ts). */
async function traceTools(ctx: Ctx, url: string, workerId: string) {
  const [{ otlpTarget }, { workerSpans }] = await Promise.all([import('../../trace/export'), import('../../trace/worker')]);
  return workerSpans(
    { ...otlpTarget(url, ctx.io.env)!, network: await ctx.network() },
    { workerId, sleep: ctx.sleep, userAgent: USER_AGENT, warn: (line) => void ctx.msg(`warning: ${line}`) },
  );
}
