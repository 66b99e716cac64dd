import type { Command } from 'commander';

export const DEFAULT_INTERVAL = '2s';

/** `-l` and the time selectors of the resources whose manifest row has `selectors` (docs/behaviour.md "Selecting"). */
export function addResourceSelectorFlags(cmd: Command, plural: string): Command {
  return cmd
    .option('--older-than <duration>', `only ${plural} created longer ago than this (90s, 30m, 2h, 7d)`)
    .option('--newer-than <duration>', `only ${plural} created within this long (90s, 30m, 2h, 7d)`)
    .option('-l, --selector <selector>', `only ${plural} whose metadata matches: 'key=value,key!=value,key,!key'`);
}

/** `-w, --watch` with its `--interval` and `--timeout`. */
export function addWatchFlags(cmd: Command): Command {
  return cmd
    .option('-w, --watch', 'print the list, then every change (ADDED, MODIFIED, DELETED), through outages, until Ctrl-C, SIGTERM or --timeout')
    .option('--interval <duration>', `with --watch: how often to poll (default ${DEFAULT_INTERVAL})`)
    .option('--timeout <duration>', 'with --watch: stop after this long (exit 0; at most 24d)');
}
