import type { Command } from 'commander';
import { addSourceFlags } from '../apply/index';
import { examples, type Kit } from '../../cli/action';

/** `svc diff -f PATH…`: what `svc apply` would do; exit 0 no change, 1 changes, else the error's code. */
export default function build(cmd: Command, kit: Kit): void {
  addSourceFlags(cmd, 'also show what --prune would archive').action(kit.action(async (ctx, _args, opts) => (await import('../apply/run')).runDiff(ctx, opts)));
  examples(cmd, ['svc diff -f config/', 'svc diff -f config/ --prune -o json']);
}
