import type { Argument, Command, Option } from 'commander';
import { optionValueName } from './names';

/** The value the last word stands for: a positional argument or an option's value, by its name. */
export interface Wanted {
  /** The top-level command the words are under, e.g. `agents`. */
  group: string;
  /** The argument's name, or an option's value name (see names.ts: the long name when the placeholder is generic). */
  name: string;
  prefix: string;
  /** Values the command itself allows (`.choices()`), which need no service. */
  choices?: readonly string[];
  /** Values of svc's own options among the words (`--profile`, `--base-url`, …), by attribute name. */
  globals: Record<string, string>;
  /** The command's arguments and option values given before the last word, by name (`session`, `id`, `agent-id`). */
  given: Record<string, string>;
}

/** Walks the words after `svc` (the last one being completed) down the command tree. */
export function wantedAt(program: Command, words: string[]): Wanted | undefined {
  const globals: Record<string, string> = {};
  const given: Record<string, string> = {};
  const last = words.length - 1;
  let cmd = program;
  let positionals = 0;
  const keep = (opt: Option, value: string): void => {
    if (isGlobal(program, opt)) globals[opt.attributeName()] = value;
    else given[optionValueName(opt)] = value;
  };
  for (let i = 0; i < last; i++) {
    const w = words[i];
    if (w.startsWith('-') && w !== '-') {
      const [flag, inline] = w.split(/=(.*)/s, 2);
      const opt = findOption(cmd, flag) ?? findOption(program, flag);
      if (!opt || !(opt.required || opt.optional) || inline !== undefined) {
        if (opt && inline !== undefined) keep(opt, inline);
        continue;
      }
      if (++i === last) return { group: groupOf(cmd), name: optionValueName(opt), prefix: words[last], globals, given };
      keep(opt, words[i]);
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (sub && positionals === 0) cmd = sub;
    else {
      const arg = argumentAt(cmd, positionals++);
      if (arg) given[arg.name()] = w;
    }
  }
  const prefix = words[last] ?? '';
  if (prefix.startsWith('-')) return undefined;
  const arg = argumentAt(cmd, positionals);
  return arg && cmd !== program ? { group: groupOf(cmd), name: arg.name(), prefix, choices: arg.argChoices, globals, given } : undefined;
}

/** The argument the positional word at `index` stands for (a variadic last argument takes the rest). */
function argumentAt(cmd: Command, index: number): Argument | undefined {
  const args = cmd.registeredArguments;
  return index < args.length ? args[index] : args.at(-1)?.variadic ? args.at(-1) : undefined;
}

function findOption(cmd: Command, flag: string): Option | undefined {
  return cmd.options.find((o) => o.short === flag || o.long === flag);
}

function isGlobal(program: Command, opt: Option): boolean {
  return program.options.includes(opt);
}

function groupOf(cmd: Command): string {
  let c = cmd;
  while (c.parent?.parent) c = c.parent;
  return c.parent ? c.name() : '';
}
