import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { parseCount } from '../../config/settings';
import { UsageError } from '../../runtime/errors';
import { parseSelectors, type SessionSelectors } from '../../selection/selectors';
import { INCLUDE_ARCHIVED_FLAGS, SELECTOR_FLAGS_NO_SHORT } from './selectors';

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

/** `svc sessions grep`'s flags: its own, then the selectors (`-l` is --files-with-matches here, as grep's). */
export const SESSION_GREP_FLAGS = flagTable({
  ignoreCase: { flags: '-i, --ignore-case', description: 'fold case' },
  extendedRegexp: { flags: '-E, --extended-regexp', description: 'PATTERN is a JavaScript regular expression, run with a time limit per line' },
  type: { flags: '--type <types>', description: 'only these event types, comma-separated (agent.message, agent.tool_use, session.error, …)' },
  filesWithMatches: { flags: '-l, --files-with-matches', description: 'print only the IDs of the sessions that match' },
  follow: { flags: '-f, --follow', description: "follow the running sessions' streams, matching events as they come, until they end or Ctrl-C" },
  concurrency: { flags: '--concurrency <n>', description: `histories read at once (1 to 64, default ${GREP_READERS})` },
  cache: { flags: '--no-cache', description: 'read every history, even of settled sessions whose cached text is current' },
  ...SELECTOR_FLAGS_NO_SHORT,
  ...INCLUDE_ARCHIVED_FLAGS,
});

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
    .description("Search the text of the selected sessions' events: messages, tool inputs and results, errors");
  addFlags(cmd, SESSION_GREP_FLAGS);
  examples(cmd, [
    "svc sessions grep 'quota exceeded' --status failed",
    "svc sessions grep -E 'rm\\s+-rf' --type agent.tool_use --newer-than 7d -l",
    'svc sessions grep -i timeout --agent reviewer -o ndjson',
    'svc sessions grep -f -i error --status running',
  ]);
  cmd.action(kit.verb(parseGrep, async (ctx, o) => (await import('./grep-run')).grepSessions(ctx, o)));
}
