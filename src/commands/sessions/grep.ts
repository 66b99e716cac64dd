import type { Command } from 'commander';
import { examples, type FlagsOf, type FlagTable, type Kit } from '../../cli/action';
import { parseCount } from '../../config/settings';
import { UsageError } from '../../runtime/errors';
import { parseSelectors, type SessionSelectors } from '../../selection/selectors';
import { addSelectorFlags, SELECTOR_FLAGS } from './selectors';

/** `svc sessions grep PATTERN [selectors] [-i] [-E] [--type T,…] [-l] [--concurrency N] [--no-cache]`. */
export interface GrepOptions {
  pattern: string;
  selectors: SessionSelectors;
  ignoreCase: boolean;
  regex: boolean;
  types?: string[];
  sessionsOnly: boolean;
  /** `-f`: follow the running sessions' streams. */
  follow: boolean;
  concurrency: number;
  cache: boolean;
}

export const GREP_READERS = 8;

/** `svc sessions grep`'s flags (declared in addGrep). */
export const SESSION_GREP_FLAGS = {
  ...SELECTOR_FLAGS,
  includeArchived: 'switch',
  ignoreCase: 'switch',
  extendedRegexp: 'switch',
  type: 'string',
  filesWithMatches: 'switch',
  follow: 'switch',
  concurrency: 'string',
  cache: 'switch',
} as const satisfies FlagTable;

export function parseGrep([pattern]: string[], flags: FlagsOf<typeof SESSION_GREP_FLAGS>): GrepOptions {
  if (pattern === undefined || pattern === '') throw new UsageError('give a PATTERN to search for');
  const types = flags.type?.split(',').map((x) => x.trim());
  if (types?.some((x) => x === '')) throw new UsageError('--type takes event types, comma-separated (agent.message,session.error)');
  if (flags.follow && flags.filesWithMatches) throw new UsageError('-l prints each matching session once, when its history is searched: it cannot follow (-f)');
  return {
    pattern,
    selectors: parseSelectors(flags),
    ignoreCase: flags.ignoreCase === true,
    regex: flags.extendedRegexp === true,
    types,
    sessionsOnly: flags.filesWithMatches === true,
    follow: flags.follow === true,
    concurrency: flags.concurrency === undefined ? GREP_READERS : parseCount(flags.concurrency, '--concurrency', 1, 64),
    cache: flags.cache !== false,
  };
}

/** `svc sessions grep`: the events of the selected sessions whose text matches. */
export function addGrep(group: Command, kit: Kit): void {
  const cmd = group
    .command('grep')
    .argument('<pattern>', 'text to find (with -E a regular expression)')
    .description("Search the text of the selected sessions' events: messages, tool inputs and results, errors")
    .option('-i, --ignore-case', 'fold case')
    .option('-E, --extended-regexp', `PATTERN is a JavaScript regular expression, run with a time limit per line`)
    .option('--type <types>', 'only these event types, comma-separated (agent.message, agent.tool_use, session.error, …)')
    .option('-l, --files-with-matches', 'print only the IDs of the sessions that match')
    .option('-f, --follow', "follow the running sessions' streams, matching events as they come, until they end or Ctrl-C")
    .option('--concurrency <n>', `histories read at once (1 to 64, default ${GREP_READERS})`)
    .option('--no-cache', 'read every history, even of settled sessions whose cached text is current');
  addSelectorFlags(cmd, { includeArchived: true, noShortSelector: true });
  examples(cmd, [
    "svc sessions grep 'quota exceeded' --status failed",
    "svc sessions grep -E 'rm\\s+-rf' --type agent.tool_use --newer-than 7d -l",
    'svc sessions grep -i timeout --agent reviewer -o ndjson',
    'svc sessions grep -f -i error --status running',
  ]);
  cmd.action(kit.verb(parseGrep, async (ctx, o) => (await import('./grep-run')).grepSessions(ctx, o)));
}
