import type { Command } from 'commander';
import { noOptions, type Kit } from '../../cli/action';
import { runUpdateCheck } from '../../update/check';

/** `svc __update-check`: started detached by a run on a terminal, at most once a day (src/update/notice.ts). */
export default function build(group: Command, kit: Kit): void {
  group.action(kit.verb(noOptions, (ctx) => runUpdateCheck(ctx.io.env)));
}
