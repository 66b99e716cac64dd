import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { addFlags } from '../../cli/flags';
import { parseTop, TOP_FLAGS } from './parse';

/** `svc top`: the fleet, live. */
export default function build(cmd: Command, kit: Kit): void {
  addFlags(cmd, TOP_FLAGS);
  examples(cmd, [
    'svc top',
    'svc top --status running,idle --agent triager',
    'svc top --environment workers --readonly',
    "svc top -l 'team=platform' --interval 5s",
  ]);
  cmd.action(kit.verb(parseTop, async (ctx, o) => (await import('./run')).runTop(ctx, o)));
}
