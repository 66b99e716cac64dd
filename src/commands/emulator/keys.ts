import type { Command } from 'commander';
import type { Ctx } from '../../runtime/context';
import { emulatorAdmin } from '../../api/emulator';
import { write } from '../../runtime/io';
import { examples, type Kit } from '../../cli/action';

/**
 * `svc emulator keys ENV`: issues a work key for a self-hosted environment of the emulator at the base URL
 * (its loopback admin path `POST /_emulator/environments/{id}/keys`) and prints it, for `SVC_ENVIRONMENT_KEY`.
 */
export async function runKeys(ctx: Ctx, environmentId: string): Promise<void> {
  const c = await ctx.client(ctx.settings.apiKey?.value);
  await write(ctx.io.stdout, `${await emulatorAdmin.issueWorkKey(c, environmentId)}\n`);
}

export function addKeys(emulator: Command, kit: Kit): Command {
  const cmd = emulator
    .command('keys')
    .argument('<env>', 'self-hosted environment ID')
    .description('Issue a work key for a self-hosted environment of a running emulator and print it (for SVC_ENVIRONMENT_KEY)');
  examples(cmd, ['export SVC_ENVIRONMENT_KEY=$(svc emulator keys ENV_ID)']);
  return cmd.action(
    kit.verb(
      (args) => ({ environment: args[0] }),
      (ctx, o) => runKeys(ctx, o.environment),
    ),
  );
}
