import type { Command } from 'commander';
import type { Ctx } from '../../runtime/context';
import { emulatorAdmin } from '../../api/emulator';
import { parseCount } from '../../config/settings';
import { UsageError } from '../../runtime/errors';
import { write } from '../../runtime/io';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';

/** `svc emulator outage`'s flags. */
export const EMULATOR_OUTAGE_FLAGS = flagTable({
  sessions: { flags: '--sessions <n>', description: 'how many sessions fail (default 50)' },
  errorType: { flags: '--error-type <type>', description: 'the session.error type they fail with (default engine_overloaded)' },
  turns: { flags: '--turns <n>', description: 'messages each session is sent, each turn failing (default 1)' },
});

export interface OutageOptions {
  sessions: number;
  errorType: string;
  turns: number;
}

export function parseOutage(_args: string[], flags: FlagsOf<typeof EMULATOR_OUTAGE_FLAGS>): OutageOptions {
  const errorType = flags.errorType ?? 'engine_overloaded';
  if (!/^[a-z0-9_]+$/.test(errorType)) throw new UsageError(`--error-type takes a session error type such as engine_overloaded (got "${errorType}")`);
  return {
    sessions: parseCount(flags.sessions ?? '50', '--sessions', 1, 1000),
    errorType,
    turns: parseCount(flags.turns ?? '1', '--turns', 1, 10),
  };
}

/**
 * `svc emulator outage`: on the emulator at the base URL, sessions that fail with an error type during a model outage
 * that then ends (its loopback admin path `POST /_emulator/scenarios/outage`), to rehearse `explain` and `rerun`.
 */
export async function runOutage(ctx: Ctx, o: OutageOptions): Promise<void> {
  const c = await ctx.client(ctx.settings.apiKey?.value);
  const r = await emulatorAdmin.outage(c, { sessions: o.sessions, error_type: o.errorType, turns: o.turns });
  if (ctx.format === 'id')
    return ctx.out.list(
      r.session_ids.map((id) => ({ id })),
      [],
    );
  if (ctx.format !== 'table' || ctx.settings.jq) return ctx.out.item(r);
  await write(
    ctx.io.stdout,
    `${r.session_ids.length} sessions of agent ${r.agent_id} (metadata scenario=outage) failed with ${r.error_type}; the outage is over\n`,
  );
}

export function addOutage(emulator: Command, kit: Kit): Command {
  const cmd = addFlags(
    emulator
      .command('outage')
      .description('On a running emulator: sessions that fail with an error type in a model outage that then ends (to rehearse explain and rerun)'),
    EMULATOR_OUTAGE_FLAGS,
  );
  examples(cmd, ['svc emulator outage', 'svc emulator outage --sessions 10 --error-type model_unavailable --turns 2']);
  return cmd.action(kit.verb(parseOutage, runOutage));
}
