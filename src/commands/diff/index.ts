import type { Command } from 'commander';
import { parseSources, sourceFlags } from '../apply/index';
import { examples, type Kit } from '../../cli/action';
import { addFlags } from '../../cli/flags';

/** `svc diff`'s flags: apply's sources, its --prune described for a diff. */
export const DIFF_FLAGS = sourceFlags('also show what --prune would archive');

/** `svc diff -f PATH…`: what `svc apply` would do; exit 0 no change, 1 changes, else the error's code. */
export default function build(cmd: Command, kit: Kit): void {
  addFlags(cmd, DIFF_FLAGS).action(kit.verb(parseSources, async (ctx, o) => (await import('../apply/run')).runDiff(ctx, o)));
  examples(cmd, ['svc diff -f config/', 'svc diff -f config/ --prune -o json']);
}
