import type { CommandNode, Described } from './tree';

/**
 * The lookup table every script embeds, one row per key:
 * `C|path` subcommands, `O|path` options, `V|path` options that take a value,
 * `E|path|flag` an option's values, `A|path` a command with positional arguments
 * (completed by `svc __complete`), `F|path|flag` and `F|path|#N` an option value or
 * the Nth positional argument (from 0) that the shell completes as a file name
 * (`file`, or `@file` for a body given as `@path`). Options of '' (svc itself) apply everywhere.
 */
export interface Row {
  keys: string[];
  items: Described[];
  /** Whether the shell shows the items' descriptions (commands and options). */
  described: boolean;
}

export function tableRows(nodes: CommandNode[]): Row[] {
  const rows: Row[] = [];
  for (const n of nodes) {
    if (n.commands.length) rows.push({ keys: [`C|${n.path}`], items: n.commands, described: true });
    const flags = n.options.flatMap((o) => o.flags.map((name) => ({ name, description: o.description })));
    if (flags.length) rows.push({ keys: [`O|${n.path}`], items: flags, described: true });
    const valued = n.options.filter((o) => o.takesValue).flatMap((o) => o.flags);
    if (valued.length) rows.push({ keys: [`V|${n.path}`], items: plain(valued), described: false });
    for (const o of n.options) if (o.values.length) rows.push({ keys: o.flags.map((f) => `E|${n.path}|${f}`), items: plain(o.values), described: false });
    for (const o of n.options) if (o.path) rows.push({ keys: o.flags.map((f) => `F|${n.path}|${f}`), items: plain([o.path]), described: false });
    n.argPaths.forEach((kind, i) => kind && rows.push({ keys: [`F|${n.path}|#${i}`], items: plain([kind]), described: false }));
    if (n.takesArgs && !n.commands.length) rows.push({ keys: [`A|${n.path}`], items: plain(['1']), described: false });
  }
  return rows;
}

function plain(names: string[]): Described[] {
  return names.map((name) => ({ name, description: '' }));
}

/** A POSIX single-quoted word (bash and zsh). */
export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
