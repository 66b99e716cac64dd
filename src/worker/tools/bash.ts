import { spawn } from 'node:child_process';
import { findProgram } from '../../fs/find-program';
import type { ToolContext } from './context';
import { failed, truncated, ok, optInt, str, type Input, type ToolResult } from './result';

/** Longest `timeout` a call may ask for (ms). */
const MAX_BASH_TIMEOUT_MS = 600_000;

/**
 * `bash {command, timeout?}` (timeout in ms) in the workdir, stdout and stderr interleaved. The command runs
 * in its own process group so a timeout or a cancel kills everything it started.
 */
export function bash(input: Input, ctx: ToolContext): Promise<ToolResult> {
  const command = str(input, 'command');
  const timeoutMs = Math.min(optInt(input, 'timeout', 1) ?? ctx.bashTimeoutMs, MAX_BASH_TIMEOUT_MS);
  // Looked up in PATH's absolute folders only: a relative entry would find a `bash` the agent wrote into the workdir.
  const program = findProgram('bash', ctx.env);
  if (!program) return Promise.resolve(failed('cannot run bash: no bash in an absolute folder of PATH'));
  return new Promise((resolve) => {
    const child = spawn(program, ['-c', command], { cwd: ctx.workdir, env: ctx.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    // Only the head is kept in memory; the rest is counted so the marker can say how much was cut.
    let out = '';
    let total = 0;
    const take = (chunk: Buffer) => {
      const s = chunk.toString('utf8');
      total += s.length;
      if (out.length < ctx.maxOutputChars) out += s.slice(0, ctx.maxOutputChars - out.length);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let ended: 'timeout' | 'cancelled' | undefined;
    const kill = (why: 'timeout' | 'cancelled') => {
      ended ??= why;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const timer = setTimeout(() => kill('timeout'), timeoutMs);
    const onAbort = () => kill('cancelled');
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
    // A background job that keeps the pipes open must not hold the result back once the command has exited.
    child.on('exit', () => setTimeout(() => child.stdout.destroy() && child.stderr.destroy(), 200).unref());
    const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: Error) => {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      const text = total > out.length ? truncated(out, total - out.length) : out;
      if (spawnError) resolve(failed(`cannot run bash: ${spawnError.message}`));
      else if (ended === 'timeout') resolve(failed(`${text}\n[timed out after ${timeoutMs} ms; the command was killed]`));
      else if (ended === 'cancelled') resolve(failed(`${text}\n[cancelled: the worker stopped this command]`));
      else if (code === 0) resolve(ok(text));
      else resolve(failed(`${text}\n[exit ${code ?? `signal ${signal}`}]`));
    };
    child.once('error', (e) => finish(null, null, e));
    child.once('close', (code, signal) => finish(code, signal));
  });
}
