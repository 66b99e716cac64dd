import type { CommandNode, Described } from './tree';

/**
 * The lookup table every script embeds, one row per key:
 * `C|path` subcommands, `O|path` options, `V|path` options that take a value,
 * `E|path|flag` an option's values, `A|path` a command with positional arguments
 * (completed by `svc __complete`). Options of '' (svc itself) apply everywhere.
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
