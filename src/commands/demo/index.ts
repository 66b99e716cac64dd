import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { printsText } from '../../cli/text-output';

export default function build(cmd: Command, kit: Kit): void {
  examples(cmd, ['svc demo', 'svc demo | less', 'svc demo --fleet']);
  printsText(cmd, 'it walks through a session for a reader');
  cmd.option('--fleet', 'a few dozen sessions in different states on the emulator, shown by svc top');
  cmd.action(
    kit.verb(
      (_args, flags) => ({ fleet: Boolean(flags.fleet) }),
      async (ctx, o) => (o.fleet ? (await import('../top/demo')).runFleetDemo(ctx) : (await import('./run')).runDemo(ctx)),
    ),
  );
}
