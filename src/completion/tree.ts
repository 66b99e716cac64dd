import { Help, type Command, type Option } from 'commander';
import { OUTPUT_FORMATS } from '../config/settings';
import { optionValueName, pathKind, type PathKind } from './names';
import { STATUS_FILTER_VALUES, THREAD_FILTER_VALUES } from '../session/state';

/** One command of the tree as the completion scripts see it; `path` is '' for svc itself. */
export interface CommandNode {
  path: string;
  commands: Described[];
  options: OptionNode[];
  takesArgs: boolean;
  /** Per positional argument, whether it is a local path (completed by the shell, not the service). */
  argPaths: (PathKind | undefined)[];
}

export interface Described {
  name: string;
  description: string;
}

export interface OptionNode {
  flags: string[];
  description: string;
  takesValue: boolean;
  values: string[];
  path?: PathKind;
}

/**
 * Values of options that are checked after parsing rather than by commander's `.choices()` (a comma list is checked
 * value by value): by flag, or by `command path flag` where one command's flag takes other values.
 */
const VALUES_CHECKED_LATER: Record<string, readonly string[]> = {
  '--output': OUTPUT_FORMATS,
  '--status': STATUS_FILTER_VALUES,
  'threads archive --status': THREAD_FILTER_VALUES,
};

const help = new Help();

/** Every visible command, parents before children, in help order; `help` at the top only (`svc help`, not `svc sessions help`). */
export function commandNodes(cmd: Command, path = ''): CommandNode[] {
  const subs = help.visibleCommands(cmd).filter((c) => c.name() !== 'help' || path === '');
  const node: CommandNode = {
    path,
    commands: subs.flatMap((c) => [c.name(), ...c.aliases()].map((name) => ({ name, description: c.description() }))),
    options: help.visibleOptions(cmd).map((o) => optionNode(o, path)),
    takesArgs: cmd.registeredArguments.length > 0,
    argPaths: cmd.registeredArguments.map((a) => pathKind(a.name())),
  };
  return [node, ...subs.flatMap((c) => commandNodes(c, path ? `${path} ${c.name()}` : c.name()))];
}

function optionNode(o: Option, path: string): OptionNode {
  const later = o.long ? (VALUES_CHECKED_LATER[`${path} ${o.long}`] ?? VALUES_CHECKED_LATER[o.long]) : undefined;
  return {
    flags: [o.short, o.long].filter((f): f is string => Boolean(f)),
    description: o.description,
    takesValue: o.required || o.optional,
    values: [...(o.argChoices ?? later ?? [])],
    path: o.required || o.optional ? pathKind(optionValueName(o)) : undefined,
  };
}
