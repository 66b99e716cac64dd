import { Writable } from 'node:stream';
import type { Command } from 'commander';
import type { Ctx } from '../../runtime/context';
import { completeWords } from '../../completion/dynamic';
import { write, type Io } from '../../runtime/io';
import { escapeLineControls } from '../../output/controls';
import { makeKit, type Kit, type Tree } from '../../cli/action';
import { splitWords } from '../../cli/aliases';
import { listExtensions } from '../../cli/extensions';
import type { Candidate } from '../../completion/cache';
import { configFile } from '../../config/paths';
import { readConfig } from '../../config/store';

/** `svc __complete -- WORDS…`: the words after `svc`, the last one being completed. */
export interface CompleteOptions {
  words: string[];
}

export const parseComplete = (words: string[]): CompleteOptions => ({ words });

/** What the completion scripts call for resource IDs and names; one "value<TAB>label" per line. */
export async function runComplete(ctx: Ctx, { words }: CompleteOptions, kit: Kit): Promise<void> {
  // Everything of io but stderr, without reading io.stdin (a getter that builds the stream).
  const quiet: Io = Object.assign(Object.create(ctx.io) as Io, { stderr: new Writable({ write: (_c, _e, cb) => cb() }) });
  const own = ownWords(words, quiet, kit.tree);
  const candidates =
    'candidates' in own
      ? own.candidates
      : await programFor(own.words, quiet, kit).then(
          (program) => completeWords(program, own.words, quiet),
          () => [],
        );
  // A name from the service is listed by the shell as is: its control characters (a tab or a newline would also
  // break the line format) are shown escaped.
  await write(ctx.io.stdout, candidates.map((c) => `${c.value}\t${escapeLineControls(c.label)}\n`).join(''));
}

export default function build(group: Command, kit: Kit): void {
  group.argument('[words...]', 'the words after svc, the last one being completed').action(kit.verb(parseComplete, (ctx, o) => runComplete(ctx, o, kit)));
}

/**
 * The first word also completes to the aliases (config) and extensions (PATH), which the scripts' static table cannot
 * hold; after an alias of svc's words, the words are completed as the alias expands (its `$N` left to the arguments).
 */
function ownWords(words: string[], io: Io, tree: Tree): { words: string[] } | { candidates: Candidate[] } {
  const head = words.slice(0, -1);
  const prefix = words.at(-1) ?? '';
  const name = tree.target(head);
  if (name !== undefined && tree.isCommand(name)) return { words };
  const aliases = aliasesOf(io);
  if (name === undefined) {
    if (prefix.startsWith('-') || tree.target(words) !== prefix) return { words };
    const extensions = listExtensions(io.env, (n) => tree.isCommand(n) || Object.hasOwn(aliases, n));
    const all = [
      ...Object.keys(aliases).map((n) => ({ value: n, label: `alias: ${aliases[n]}` })),
      ...extensions.map((e) => ({ value: e.name, label: 'extension' })),
    ];
    return { candidates: all.filter((c) => c.value.startsWith(prefix)) };
  }
  if (!Object.hasOwn(aliases, name) || aliases[name].startsWith('!')) return { words };
  let at = 0;
  while (tree.target(head.slice(0, at + 1)) !== name) at++;
  let expansion: string[];
  try {
    expansion = splitWords(aliases[name]).filter((w) => !/\$\d/.test(w));
  } catch {
    return { words };
  }
  return { words: [...head.slice(0, at), ...expansion, ...words.slice(at + 1)] };
}

/** The aliases, or none when the config cannot be read (completion never fails). */
function aliasesOf(io: Io): Record<string, string> {
  try {
    return readConfig(configFile(io.env)).aliases ?? {};
  } catch {
    return {};
  }
}

/** A fresh command tree with the group of the words being completed loaded. */
async function programFor(words: string[], quiet: Io, outer: Kit): Promise<Command> {
  const kit = makeKit(quiet, () => {}, outer.tree);
  const program = kit.tree.build(quiet, kit);
  const group = kit.tree.target(words.slice(0, -1));
  if (group) await kit.tree.load(program, group, kit);
  return program;
}
