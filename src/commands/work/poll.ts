import { hostname } from 'node:os';
import type { Command } from 'commander';
import { MAX_BLOCK_MS, work } from '../../api/work';
import { parseCount } from '../../config/settings';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { SECRET_COLUMN, WORK_COLUMNS } from './columns';
import { withoutSecret, workClient } from './credential';
import { shellWord } from '../../text/shell-words';

export function addPoll(group: Command, kit: Kit): Command {
  const cmd = addFlags(
    group
      .command('poll')
      .argument('<env>', 'environment ID')
      .description('Claim at most one queued work row (the row is then held by this worker until acked or its delivery window ends)'),
    WORK_POLL_FLAGS,
  );
  examples(cmd, ['svc work poll ENV_ID --block-ms 10000', 'svc work poll ENV_ID --worker-id runner-1 -o json --jq ".[0].id"']);
  return cmd.action(kit.verb(parsePoll, runPoll));
}

/** `svc work poll ENV [--block-ms N] [--worker-id NAME] [--show-secret]`. */
export interface PollOptions {
  env: string;
  blockMs: number;
  workerId: string;
  showSecret: boolean;
}

/** `svc work poll`'s flags. */
export const WORK_POLL_FLAGS = flagTable({
  blockMs: { flags: '--block-ms <n>', description: `wait up to N ms for a row (0..${MAX_BLOCK_MS})`, default: '0' },
  workerId: { flags: '--worker-id <name>', description: 'worker name sent as Svc-Worker-Id (default: svc-cli@HOST)' },
  showSecret: { flags: '--show-secret', description: "print the row's secret (a credential: never log or store it)" },
});

export const parsePoll = ([env]: string[], flags: FlagsOf<typeof WORK_POLL_FLAGS>): PollOptions => ({
  env,
  blockMs: parseCount(String(flags.blockMs), '--block-ms', 0, MAX_BLOCK_MS),
  workerId: flags.workerId ?? `svc-cli@${hostname()}`,
  showSecret: Boolean(flags.showSecret),
});

export async function runPoll(ctx: Ctx, o: PollOptions): Promise<void> {
  const { env, workerId } = o;
  const c = await workClient(ctx, false);
  const items = (await work.poll(c, env, workerId, o.blockMs, ctx.io.signal)).items;
  const shown = o.showSecret ? items : items.map(withoutSecret);
  for (const row of items) {
    // A claimed row is held by this command: say so where someone is watching.
    if (ctx.io.stdout.isTTY || ctx.io.stderr.isTTY) {
      await ctx.msg(
        `warning: claimed work row ${row.id} (generation ${row.generation}) as worker ${workerId}; ` +
          `ack it within the delivery window (svc work ack ${shellWord(env)} ${shellWord(String(row.id))} --generation ${shellWord(String(row.generation))}) or it returns to the queue`,
      );
    }
  }
  if (!items.length && ctx.format === 'table') await ctx.msg(`no queued work row in ${env}`);
  await ctx.out.list(shown, o.showSecret ? [...WORK_COLUMNS, SECRET_COLUMN] : WORK_COLUMNS);
}
