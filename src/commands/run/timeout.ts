import type { Command } from 'commander';
import type { Ctx } from '../../context';

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
