import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { parseCount } from '../../config/settings';
import { parseDuration } from '../../text/duration';
import { parseSelectors, type SessionSelectors } from '../../selection/selectors';
import { BY_VALUES, parseBy, type GroupBy } from '../../stats/group';
import { INCLUDE_ARCHIVED_FLAGS, SELECTOR_FLAGS } from '../sessions/selectors';

/** `svc stats [selectors] [--since D] [--by …] [--concurrency N] [--no-cache]`. */
export interface StatsOptions {
  selectors: SessionSelectors;
  sinceMs?: number;
  by: GroupBy;
  concurrency: number;
  cache: boolean;
}

export const DEFAULT_READERS = 8;

/** `svc stats`'s flags: the selectors, --include-archived and its own. */
export const STATS_FLAGS = flagTable({
  ...SELECTOR_FLAGS,
  ...INCLUDE_ARCHIVED_FLAGS,
  since: {
    flags: '--since <duration>',
    description: 'only sessions active within this long (updated since; 90s, 30m, 2h, 7d); their whole histories count',
  },
  by: { flags: '--by <group>', description: `sum per ${BY_VALUES} (default: one group, all)` },
  concurrency: { flags: '--concurrency <n>', description: `histories read at once (1 to 64, default ${DEFAULT_READERS})` },
  cache: { flags: '--no-cache', description: 'read every history, even of settled sessions whose cached figures are current' },
});

export function parseStats(_args: string[], flags: FlagsOf<typeof STATS_FLAGS>): StatsOptions {
  const { since, concurrency } = flags;
  return {
    selectors: parseSelectors(flags),
    sinceMs: since === undefined ? undefined : parseDuration(since, '--since'),
    by: parseBy(flags.by),
    concurrency: concurrency === undefined ? DEFAULT_READERS : parseCount(concurrency, '--concurrency', 1, 64),
    cache: flags.cache !== false,
  };
}

/** `svc stats`: what the selected sessions did, summed per group, from their histories. */
export default function build(cmd: Command, kit: Kit): void {
  addFlags(cmd, STATS_FLAGS);
  examples(cmd, [
    'svc stats',
    'svc stats --since 7d --by agent',
    'svc stats --status failed --by day -o json',
    "svc stats -l 'team=infra' --by label:team --since 24h",
  ]);
  cmd.action(kit.verb(parseStats, async (ctx, o) => (await import('./run')).runStats(ctx, o)));
}
