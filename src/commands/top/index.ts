import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { addSelectorFlags } from '../sessions/selectors';
import { parseTop } from './parse';

/** `svc top`: the fleet, live. */
export default function build(cmd: Command, kit: Kit): void {
  addSelectorFlags(cmd, { includeArchived: true });
  cmd
    .option('--environment <environment>', 'the environment whose work rows view 2 shows (ID or name; a missing one is exit 6 before the board opens)')
    .option('--interval <duration>', 'how often to poll the fleet (default 2s)')
    .option('--readonly', 'turn the write keys off (i, c, a, y, n), on the board and in the live view Enter opens');
  examples(cmd, [
    'svc top',
    'svc top --status running,idle --agent triager',
    'svc top --environment workers --readonly',
    "svc top -l 'team=platform' --interval 5s",
  ]);
  cmd.action(kit.verb(parseTop, async (ctx, o) => (await import('./run')).runTop(ctx, o)));
}
