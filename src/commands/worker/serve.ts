import { resolve } from 'node:path';
import type { Ctx } from '../../runtime/context';
import type { WorkerServeOptions } from './parse';
import { DEFAULT_BASH_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS, MAX_OUTPUT_CHARS } from './run';

/** `svc worker serve`: one hand-off from standard input, served with the built-in tools. */
export async function runWorkerServe(ctx: Ctx, o: WorkerServeOptions): Promise<void> {
  const options = {
    workdir: resolve(ctx.io.cwd, o.workdir),
    maxIdleMs: o.maxIdleMs,
    logFormat: o.logFormat,
    bashTimeoutMs: DEFAULT_BASH_TIMEOUT_MS,
    toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    maxOutputChars: MAX_OUTPUT_CHARS,
    unrestrictedPaths: o.unrestrictedPaths,
  };
  const [{ runServe }, { follow }] = await Promise.all([import('../../worker/serve'), import('../../api/stream/resumable')]);
  await runServe(options, {
    stdin: ctx.io.stdin,
    stderr: ctx.io.stderr,
    // The hand-off's base URL serves unless one is set here (flag, environment or profile).
    clientFor: (h) =>
      ctx.client(h.sessions_token, ctx.settings.baseUrl.source === 'default' ? h.base_url : ctx.settings.baseUrl.value, { outliveSignal: true }),
    follow,
    env: ctx.io.env,
    signal: ctx.io.signal,
  });
}
