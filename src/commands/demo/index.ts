import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { printsText } from '../../cli/text-output';

/** `svc demo`'s flags. */
export const DEMO_FLAGS = flagTable({
  fleet: { flags: '--fleet', description: 'a few dozen sessions in different states on the emulator, shown by svc top' },
});

export default function build(cmd: Command, kit: Kit): void {
  examples(cmd, ['svc demo', 'svc demo | less', 'svc demo --fleet']);
  printsText(cmd, 'it walks through a session for a reader');
  addFlags(cmd, DEMO_FLAGS);
  cmd.action(
    kit.verb(
      (_args, flags: FlagsOf<typeof DEMO_FLAGS>) => ({ fleet: Boolean(flags.fleet) }),
      async (ctx, o) => (o.fleet ? (await import('../top/demo')).runFleetDemo(ctx) : (await import('./run')).runDemo(ctx)),
    ),
  );
}
