/**
 * Every command with its flags, from the command tree: `svc help reference` (one page of text) and the man pages the
 * build writes (one per group, and svc(1) listing them). Pure: the tree comes in loaded, text goes out.
 */
import { Help, type Command, type Option } from 'commander';
import { commandExamples } from './action';

export interface ReferenceCommand {
  /** `agents get`; '' for svc itself. */
  path: string;
  usage: string;
  description: string;
  options: ReferenceOption[];
  examples: string[];
  /** Whether it has verbs of its own (a group). */
  group: boolean;
}

export interface ReferenceOption {
  flags: string;
  description: string;
}

const help = new Help();

/** The visible commands, parents before children, in help order; the root's global options only on the root. */
export function referenceOf(cmd: Command, path = ''): ReferenceCommand[] {
  const subs = help.visibleCommands(cmd).filter((c) => c.name() !== 'help');
  const own: ReferenceCommand = {
    path,
    usage: `svc ${path ? `${path} ` : ''}${cmd.usage()}`.replace(/\s+/g, ' ').trim(),
    description: cmd.description(),
    options: help
      .visibleOptions(cmd)
      .filter((o: Option) => o.long !== '--help')
      .map((o) => ({ flags: o.flags, description: o.description })),
    examples: commandExamples(cmd),
    group: subs.length > 0,
  };
  return [own, ...subs.flatMap((c) => referenceOf(c, path ? `${path} ${c.name()}` : c.name()))];
}

/** `svc help reference`: every command and its own flags; the global flags once, at the top. */
export function referenceText(commands: ReferenceCommand[]): string {
  const [root, ...rest] = commands;
  const lines = ['svc: every command and its flags', '', 'Global flags (every command):', ...optionLines(root.options), ''];
  for (const c of rest) {
    lines.push(c.usage, `  ${c.description}`);
    lines.push(...optionLines(c.options));
    for (const e of c.examples) lines.push(`    $ ${e}`);
    lines.push('');
  }
  lines.push('Help topics: svc help environment, svc help exit-codes, svc help formatting, svc help reference.', '');
  return lines.join('\n');
}

function optionLines(options: ReferenceOption[]): string[] {
  const width = Math.min(34, Math.max(0, ...options.map((o) => o.flags.length)));
  return options.map((o) => `    ${o.flags.padEnd(width)}  ${o.description}`);
}

/**
 * Man pages: `svc.1` (what svc is, the global flags, every group with its page), and `svc-GROUP.1` per top-level
 * group (each command below it with usage, description, flags and examples). roff, as `man -l` reads it.
 */
export function manPages(commands: ReferenceCommand[], version: string, date: string): Record<string, string> {
  const [root, ...rest] = commands;
  const groups = rest.filter((c) => !c.path.includes(' '));
  const pages: Record<string, string> = {};
  const see = groups.map((g) => `.BR svc\\-${roff(g.path)} (1)`).join(',\n');
  pages['svc.1'] = [
    header('svc', version, date),
    '.SH NAME',
    'svc \\- the operator CLI for the Hosted Agent Service',
    '.SH SYNOPSIS',
    '.B svc',
    '.I COMMAND',
    '[\\fIFLAGS\\fR]',
    '.SH DESCRIPTION',
    roff(root.description) + '.',
    'Data goes to standard output, messages and errors to standard error.',
    'Run \\fBsvc help reference\\fR for every command and flag on one page.',
    '.SH COMMANDS',
    ...groups.flatMap((g) => ['.TP', `.B ${roff(g.path)}`, `${roff(g.description)} (see \\fBsvc\\-${roff(g.path)}\\fR(1))`]),
    '.SH GLOBAL FLAGS',
    ...optionRoff(root.options),
    '.SH EXIT STATUS',
    'See \\fBsvc help exit\\-codes\\fR.',
    '.SH ENVIRONMENT',
    'See \\fBsvc help environment\\fR.',
    '.SH SEE ALSO',
    see,
    '',
  ].join('\n');
  for (const g of groups) {
    const below = rest.filter((c) => c.path === g.path || c.path.startsWith(`${g.path} `));
    pages[`svc-${g.path}.1`] = [
      header(`svc-${g.path}`, version, date),
      '.SH NAME',
      `svc\\-${roff(g.path)} \\- ${roff(g.description)}`,
      '.SH SYNOPSIS',
      ...below.filter((c) => !c.group).flatMap((c) => ['.nf', `.B ${roff(c.usage)}`, '.fi']),
      '.SH DESCRIPTION',
      roff(g.description) + '.',
      'Every command also takes the global flags of \\fBsvc\\fR(1).',
      ...below
        .filter((c) => !c.group)
        .flatMap((c) => [
          '.SH ' + roff(`svc ${c.path}`).toUpperCase(),
          roff(c.description) + (c.description.endsWith('.') ? '' : '.'),
          '.PP',
          '.nf',
          roff(c.usage),
          '.fi',
          ...optionRoff(c.options),
          ...(c.examples.length ? ['.PP', 'Examples:', '.PP', '.RS', '.nf', ...c.examples.map((e) => roff(`$ ${e}`)), '.fi', '.RE'] : []),
        ]),
      '.SH SEE ALSO',
      '.BR svc (1)',
      '',
    ].join('\n');
  }
  return pages;
}

const header = (name: string, version: string, date: string) => `.TH "${name.toUpperCase()}" "1" "${date}" "svc ${version}" "svc manual"\n.ad l\n.nh`;

function optionRoff(options: ReferenceOption[]): string[] {
  return options.flatMap((o) => ['.TP', `.B ${roff(o.flags)}`, roff(o.description)]);
}

/** Text made safe for roff: backslashes and hyphens escaped, other than ASCII as `\[uXXXX]`, no line starting with a control character. */
function roff(text: string): string {
  const escaped = text
    .replace(/\s+/g, ' ')
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/[^\x20-\x7e]/gu, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
  return /^[.']/.test(escaped) ? `\\&${escaped}` : escaped;
}
