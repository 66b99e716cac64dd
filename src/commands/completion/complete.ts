import type { Command } from 'commander';
import { completeWords } from '../../completion/dynamic';
import { write } from '../../io';
import type { Kit } from '../kit';

/** `svc __complete -- WORDS…`: what the completion scripts call for resource IDs; one "id<TAB>label" per line. */
export default function build(group: Command, kit: Kit): void {
  group.argument('[words...]', 'the words after svc, the last one being completed').action(
    kit.action(async (ctx, words) => {
      const candidates = await completeWords(words, ctx.io);
      await write(ctx.io.stdout, candidates.map((c) => `${c.id}\t${c.label}\n`).join(''));
    }),
  );
}
