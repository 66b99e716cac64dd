import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';

export default function build(cmd: Command, kit: Kit): void {
  examples(cmd, ['svc demo', 'svc demo | less']);
  cmd.action(kit.action(async (ctx) => (await import('./run')).runDemo(ctx)));
}
