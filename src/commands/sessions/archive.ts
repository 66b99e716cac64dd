import type { Command } from 'commander';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../context';
import { examples, type Kit } from '../../cli/action';
import { done } from '../../cli/verbs/resource';
import { pollSession } from './poll';

export function addArchive(group: Command, kit: Kit): void {
  const cmd = group
    .command('archive')
    .argument('<session>', 'session ID')
    .description('Archive (terminate) a session, cancelling its threads; a running session is interrupted first and waited for');
  examples(cmd, ['svc sessions archive SESSION_ID', 'svc sessions archive SESSION_ID -o json --jq .archived_at']);
  cmd.action(kit.action((ctx, [sid]) => runArchive(ctx, sid)));
}

/** The spec's order (R-SESS-47): interrupt a running or stopping session and wait for idle, then archive. */
export async function runArchive(ctx: Ctx, sid: string): Promise<void> {
  const c = await ctx.api();
  const s = await sessions.get(c, sid);
  if (s.status === 'running' || s.stopping) {
    await ctx.msg(`interrupting ${sid} and waiting for it to stop before archiving`);
    if (!s.stopping) await sessions.interrupt(c, sid);
    await pollSession(ctx, c, sid, (x) => !x.stopping && x.status !== 'running');
  }
  await done(ctx, sid, await sessions.archive(c, sid), 'archived');
}
