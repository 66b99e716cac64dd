import type { Command } from 'commander';
import type { Ctx } from '../runtime/context';
import type { GlobalOptions } from '../config/settings';
import type { Io } from '../runtime/io';
import { missingPick, type Pickable } from './pick-arg';
import { textOutputConflict } from './text-output';

import type { Flags } from './flags';
export type { Flags } from './flags';

/**
 * A verb's parse step: its arguments and flags in, its typed options out. It throws UsageError for anything wrong
 * (exit 2), so nothing is sent for bad input.
 */
export type Parse<O, F extends Flags = Flags> = (args: string[], flags: F) => O;
/** A verb's run step: the typed options in, the work done through the context. */
export type RunVerb<O> = (ctx: Ctx, opts: O) => Promise<void>;
/** The parse step of a verb that takes no arguments and no flags of its own. */
export const noOptions: Parse<Record<string, never>> = () => ({});

/** What a command group needs from the CLI: IO and a way to turn parse and run steps into an action. */
export interface Kit {
  io: Io;
  /** A verb as gh builds one: `parse` turns flags into typed options, `run` does the work. */
  verb<O, F extends Flags>(parse: Parse<O, F>, run: RunVerb<O>): (...a: unknown[]) => Promise<void>;
  /** The command tree, for the verbs that read it (completion); handed in by main, so no command imports it. */
  tree: Tree;
}

/** How to build the command tree and load its groups (src/cli/program.ts). */
export interface Tree {
  build(io: Io, kit: Kit): Command;
  load(program: Command, name: string, kit: Kit): Promise<unknown>;
  loadAll(program: Command, kit: Kit): Promise<void>;
  target(argv: string[]): string | undefined;
  /** Whether a word is one of svc's own commands, which no alias or extension shadows. */
  isCommand(word: string): boolean;
}

export type GroupBuilder = (group: Command, kit: Kit) => void;

/**
 * A missing ID argument: picked from the recent ones on a terminal where svc may ask (gh's prompts), else the
 * error it was (exit 2), with nothing sent. The picker loads only when it opens.
 */
async function pickOrRefuse(ctx: Ctx, p: Pickable): Promise<string | string[] | undefined> {
  const { stdout, stderr } = ctx.io;
  if (!ctx.canPrompt || !stdout.isTTY || !stderr.isTTY) return p.refuse?.();
  const id = await (await import('./picker')).pickId(ctx, p.source);
  return p.variadic ? [id] : id;
}

export function makeKit(io: Io, onCtx: (ctx: Ctx) => void, tree: Tree): Kit {
  const verb =
    <O, F extends Flags>(parse: Parse<O, F>, run: RunVerb<O>) =>
    async (...a: unknown[]) => {
      const cmd = a[a.length - 1] as Command;
      const conflict = textOutputConflict(cmd);
      if (conflict) throw new (await import('../runtime/errors')).UsageError(conflict);
      const { globals, requestTimeout } = globalsOf(cmd);
      const given = a.slice(0, -2);
      const argsOf = () => given.flatMap((x) => (Array.isArray(x) ? x : x === undefined ? [] : [x])) as string[];
      const pick = missingPick(cmd, given, cmd.opts());
      let opts = pick ? undefined : parse(argsOf(), cmd.opts());
      // Loaded when a command runs: help and usage errors never need settings, the writer or the config.
      const [{ Ctx }, { parseSeconds }] = await Promise.all([import('../runtime/context'), import('../config/settings')]);
      if (requestTimeout !== undefined) parseSeconds(requestTimeout, '--request-timeout');
      const ctx = new Ctx(io, globals);
      onCtx(ctx);
      if (pick) {
        given[pick.index] = await pickOrRefuse(ctx, pick);
        opts = parse(argsOf(), cmd.opts());
      }
      if (!ctx.globals.jq) return run(ctx, opts!);
      // --jq compiles before the command runs: a syntax error is exit 2 with nothing sent (nothing created).
      await (await import('../output/jq')).compileJq(ctx.globals.jq);
      // --jq output goes out in batches: what is queued is printed when the command ends, before an error of its own.
      const end = () => (ctx.settingsIfResolved ? ctx.out.end() : undefined);
      try {
        await run(ctx, opts!);
      } catch (e) {
        await Promise.resolve(end()).catch(() => undefined);
        throw e;
      }
      await end();
    };
  return { io, verb, tree };
}

/**
 * The global options in force for a verb. `--request-timeout` is the per-request timeout everywhere; `--timeout`
 * is too, except on a verb that declares its own `--timeout` (a bound on the whole command): there a `--timeout`
 * written after the verb is the verb's and one before it the per-request one.
 */
function globalsOf(cmd: Command): { globals: GlobalOptions; requestTimeout?: string } {
  const all = cmd.optsWithGlobals() as GlobalOptions & { requestTimeout?: string };
  const { requestTimeout, ...globals } = all;
  const split = ownsOption(cmd, '--timeout') ? splitByVerb(cmd, '--timeout') : undefined;
  if (split) {
    cmd.setOptionValue('timeout', split.after);
    globals.timeout = split.before;
  }
  if (requestTimeout !== undefined) globals.timeout = requestTimeout;
  return { globals, requestTimeout };
}

/** The verb declares this option itself (shadowing a global one of the same name). */
export function ownsOption(cmd: Command, long: string): boolean {
  return cmd.options.some((o) => o.long === long);
}

/**
 * The last value of `--name V` / `--name=V` before and after the verb's own words in the raw arguments: commander
 * lets the program claim a global option wherever it appears, so only the position tells them apart.
 */
function splitByVerb(cmd: Command, long: string): { before?: string; after?: string } | undefined {
  const names: string[] = [];
  let root = cmd;
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  while (root.parent) root = root.parent;
  const argv = (root as Command & { rawArgs?: string[] }).rawArgs ?? [];
  let at = 0;
  for (const name of names) {
    const i = argv.indexOf(name, at);
    if (i < 0) return undefined;
    at = i + 1;
  }
  const end = argv.indexOf('--', at);
  return { before: lastValue(argv.slice(0, at), long), after: lastValue(argv.slice(at, end < 0 ? undefined : end), long) };
}

function lastValue(args: string[], long: string): string | undefined {
  let v: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === long) v = args[++i];
    else if (args[i].startsWith(`${long}=`)) v = args[i].slice(long.length + 1);
  }
  return v;
}

const EXAMPLES = new WeakMap<Command, string[]>();

const examplesText = (lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

/** Help text with examples, shown after the options; the group's help shows the first of each verb. */
export function examples(cmd: Command, lines: string[]): Command {
  EXAMPLES.set(cmd, lines);
  return cmd.addHelpText('after', examplesText(lines));
}

/** A verb's own examples, as its help shows them (none for a group). */
export const commandExamples = (cmd: Command): string[] => EXAMPLES.get(cmd) ?? [];

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
