import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { printsText } from '../../cli/text-output';

export default function build(cmd: Command, kit: Kit): void {
  examples(cmd, ['svc demo', 'svc demo | less']);
  printsText(cmd, 'it walks through a session for a reader');
  cmd.action(kit.action(async (ctx) => (await import('./run')).runDemo(ctx)));
}
