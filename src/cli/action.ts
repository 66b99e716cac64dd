import type { Command } from 'commander';
import type { Ctx } from '../context';
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
    action:
      (run) =>
      async (...a: unknown[]) => {
        const cmd = a[a.length - 1] as Command;
        const opts = cmd.opts();
        // Loaded when a command runs: help and usage errors never need settings, the writer or the config.
        const { Ctx } = await import('../context');
        const ctx = new Ctx(io, cmd.optsWithGlobals() as GlobalOptions);
        onCtx(ctx);
        const args = a.slice(0, -2).flatMap((x) => (Array.isArray(x) ? x : x === undefined ? [] : [x])) as string[];
        if (!ctx.globals.jq) return run(ctx, args, opts);
        // --jq compiles before the command runs: a syntax error is exit 2 with nothing sent (nothing created).
        await (await import('../output/jq')).compileJq(ctx.globals.jq);
        // --jq output goes out in batches: what is queued is printed when the command ends, before an error of its own.
        const end = () => (ctx.settingsIfResolved ? ctx.out.end() : undefined);
        try {
          await run(ctx, args, opts);
        } catch (e) {
          await Promise.resolve(end()).catch(() => undefined);
          throw e;
        }
        await end();
      },
  };
}

const EXAMPLES = new WeakMap<Command, string[]>();

const examplesText = (lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

/** Help text with examples, shown after the options; the group's help shows the first of each verb. */
export function examples(cmd: Command, lines: string[]): Command {
  EXAMPLES.set(cmd, lines);
  return cmd.addHelpText('after', examplesText(lines));
}

/** The first example of every verb below `group` (nested groups included), for the group's own help. */
export function verbExamples(group: Command): string[] {
  return group.commands.flatMap((c) => (c.commands.length ? verbExamples(c) : (EXAMPLES.get(c) ?? []).slice(0, 1)));
}

/** Adds the examples of its verbs to a group's help, unless the group is itself a verb (`svc run`). */
export function addGroupExamples(group: Command): void {
  for (const c of group.commands) if (c.commands.length) addGroupExamples(c);
  const lines = verbExamples(group);
  if (lines.length && !EXAMPLES.has(group)) group.addHelpText('after', examplesText(lines));
}
