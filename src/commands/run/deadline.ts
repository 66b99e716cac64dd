import type { Command } from 'commander';
import { parseSeconds } from '../../config/settings';
import type { Ctx } from '../../context';
import { InterruptedError, WaitTimeoutError } from '../../errors';

/**
 * The verb's own `--timeout D` (a deadline for `run` and `sessions wait`), told apart from the global
 * `--timeout SECONDS` (per request). Commander lets the program claim a global option wherever it appears,
 * so the raw arguments decide: written after the verb it is the deadline, before it the per-request timeout.
 */
export function verbTimeout(cmd: Command, ctx: Ctx): string | undefined {
  let root = cmd;
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  while (root.parent) root = root.parent;
  const argv = (root as Command & { rawArgs?: string[] }).rawArgs ?? [];
  let at = 0;
  for (const name of names) {
    const i = argv.indexOf(name, at);
    if (i < 0) return cmd.opts().timeout as string | undefined;
    at = i + 1;
  }
  const end = argv.indexOf('--', at);
  const before = lastTimeout(argv.slice(0, at));
  const after = lastTimeout(argv.slice(at, end < 0 ? undefined : end));
  if (after !== undefined) ctx.globals.timeout ??= before;
  return after ?? (cmd.opts().timeout as string | undefined);
}

function lastTimeout(args: string[]): string | undefined {
  let v: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--timeout') v = args[++i];
    else if (args[i].startsWith('--timeout=')) v = args[i].slice('--timeout='.length);
  }
  return v;
}

/** `--timeout D`: 10m, 30s, 1h or plain seconds; checked before any request (exit 2). */
export function parseDeadline(v: string | undefined): number | undefined {
  return v === undefined ? undefined : parseSeconds(v, '--timeout') * 1000;
}

/**
 * One abort signal for a follow: Ctrl-C (exit 130) or the deadline (exit 124). `failure()` says which
 * ended it, for the command to throw once the stream has closed.
 */
export function waitSignal(ctx: Ctx, ms: number | undefined, what: string): { signal: AbortSignal; failure: () => Error | undefined; dispose: () => void } {
  const timer = new AbortController();
  const t = ms === undefined ? undefined : setTimeout(() => timer.abort(), ms);
  const signals = [timer.signal, ...(ctx.io.signal ? [ctx.io.signal] : [])];
  return {
    signal: AbortSignal.any(signals),
    failure: () => {
      if (ctx.io.signal?.aborted) return new InterruptedError();
      if (timer.signal.aborted) return new WaitTimeoutError(`${what} after ${formatMs(ms!)} (--timeout)`);
      return undefined;
    },
    dispose: () => clearTimeout(t),
  };
}

function formatMs(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${ms / 1000}s`;
}
