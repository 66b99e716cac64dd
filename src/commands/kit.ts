import type { Command } from 'commander';
import { Ctx } from '../context';
import type { GlobalOptions } from '../config/settings';
import type { Io } from '../io';

export type Opts = Record<string, any>;
export type Run = (ctx: Ctx, args: string[], opts: Opts) => Promise<void>;

/** What a command group needs from the CLI: IO and a way to turn a run function into an action. */
export interface Kit {
  io: Io;
  action(run: Run): (...a: unknown[]) => Promise<void>;
}

export type GroupBuilder = (group: Command, kit: Kit) => void;

export function makeKit(io: Io, onCtx: (ctx: Ctx) => void): Kit {
  return {
    io,
    action: (run) => async (...a: unknown[]) => {
      const cmd = a[a.length - 1] as Command;
      const opts = cmd.opts();
      const ctx = new Ctx(io, cmd.optsWithGlobals() as GlobalOptions);
      onCtx(ctx);
      const args = a.slice(0, -2).flatMap((x) => (Array.isArray(x) ? x : x === undefined ? [] : [x])) as string[];
      await run(ctx, args, opts);
    },
  };
}

/** Help text with examples, shown after the options. */
export function examples(cmd: Command, lines: string[]): Command {
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}
