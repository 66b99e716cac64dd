import type { Command } from 'commander';
import { addSourceFlags, parseSources } from '../apply/index';
import { examples, type Kit } from '../../cli/action';

/** `svc diff -f PATH…`: what `svc apply` would do; exit 0 no change, 1 changes, else the error's code. */
export default function build(cmd: Command, kit: Kit): void {
  addSourceFlags(cmd, 'also show what --prune would archive').action(kit.verb(parseSources, async (ctx, o) => (await import('../apply/run')).runDiff(ctx, o)));
  examples(cmd, ['svc diff -f config/', 'svc diff -f config/ --prune -o json']);
}
