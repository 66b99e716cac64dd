import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { UsageError } from '../../runtime/errors';
import type { Ignorable } from '../../diff-sessions/compare';

const IGNORABLE: readonly Ignorable[] = ['durations', 'text'];

/** `svc sessions diff A B [--ignore durations,text]`. */
export interface SessionDiffOptions {
  a: string;
  b: string;
  ignore: Set<Ignorable>;
}

/** `svc sessions diff`'s flags. */
export const SESSION_DIFF_FLAGS = flagTable({
  ignore: { flags: '--ignore <parts>', description: `leave parts out of the comparison, comma-separated: ${IGNORABLE.join(', ')}` },
});

export function parseDiff([a, b]: string[], flags: FlagsOf<typeof SESSION_DIFF_FLAGS>): SessionDiffOptions {
  const ignore = new Set<Ignorable>();
  for (const part of flags.ignore?.split(',').map((x) => x.trim()) ?? []) {
    if (!(IGNORABLE as readonly string[]).includes(part)) throw new UsageError(`--ignore takes ${IGNORABLE.join(', ')} (comma-separated), not "${part}"`);
    ignore.add(part as Ignorable);
  }
  return { a, b, ignore };
}

/** `svc sessions diff`: two sessions side by side; exit 0 when the compared parts are the same, 1 when they differ. */
export function addDiff(group: Command, kit: Kit): void {
  const cmd = group
    .command('diff')
    .argument('<a>', 'session ID or title')
    .argument('<b>', 'session ID or title')
    .description('Compare two sessions: turns, tool calls, durations, errors, stop reasons, the final agent message (exit 1 when they differ)');
  addFlags(cmd, SESSION_DIFF_FLAGS);
  examples(cmd, [
    'svc sessions diff KNOWN_GOOD_ID NEW_ID',
    'svc sessions diff KNOWN_GOOD_ID NEW_ID --ignore durations,text || echo "the agent works differently now"',
    'svc sessions diff A B -o json --jq .differences',
  ]);
  cmd.action(kit.verb(parseDiff, async (ctx, o) => (await import('./diff-run')).diffSessions(ctx, o)));
}
