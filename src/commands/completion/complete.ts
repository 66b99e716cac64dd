import { Writable } from 'node:stream';
import type { Command } from 'commander';
import type { Ctx } from '../../context';
import { completeWords } from '../../completion/dynamic';
import { write, type Io } from '../../io';
import { escapeLineControls } from '../../output/controls';
import { makeKit, type Kit } from '../../cli/action';

/** `svc __complete -- WORDS…`: the words after `svc`, the last one being completed. */
export interface CompleteOptions {
  words: string[];
}

export const parseComplete = (words: string[]): CompleteOptions => ({ words });

/** What the completion scripts call for resource IDs and names; one "value<TAB>label" per line. */
export async function runComplete(ctx: Ctx, { words }: CompleteOptions, kit: Kit): Promise<void> {
  // Everything of io but stderr, without reading io.stdin (a getter that builds the stream).
  const quiet: Io = Object.assign(Object.create(ctx.io) as Io, { stderr: new Writable({ write: (_c, _e, cb) => cb() }) });
  const candidates = await programFor(words, quiet, kit).then(
    (program) => completeWords(program, words, quiet),
    () => [],
  );
  // A name from the service is listed by the shell as is: its control characters (a tab or a newline would also
  // break the line format) are shown escaped.
  await write(ctx.io.stdout, candidates.map((c) => `${c.value}\t${escapeLineControls(c.label)}\n`).join(''));
}

export default function build(group: Command, kit: Kit): void {
  group.argument('[words...]', 'the words after svc, the last one being completed').action(kit.verb(parseComplete, (ctx, o) => runComplete(ctx, o, kit)));
}

/** A fresh command tree with the group of the words being completed loaded. */
async function programFor(words: string[], quiet: Io, outer: Kit): Promise<Command> {
  const kit = makeKit(quiet, () => {}, outer.tree);
  const program = kit.tree.build(quiet, kit);
  const group = kit.tree.target(words.slice(0, -1));
  if (group) await kit.tree.load(program, group, kit);
  return program;
}
