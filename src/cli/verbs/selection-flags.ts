import { flagTable } from '../flags';

export const DEFAULT_INTERVAL = '2s';

/** `-l` and the time selectors of the resources whose manifest row has `selectors` (docs/behaviour.md "Selecting"). */
export const resourceSelectorFlags = (plural: string) =>
  flagTable({
    olderThan: { flags: '--older-than <duration>', description: `only ${plural} created longer ago than this (90s, 30m, 2h, 7d)` },
    newerThan: { flags: '--newer-than <duration>', description: `only ${plural} created within this long (90s, 30m, 2h, 7d)` },
    selector: { flags: '-l, --selector <selector>', description: `only ${plural} whose metadata matches: 'key=value,key!=value,key,!key'` },
  });

/** `-w, --watch` with its `--interval` and `--timeout`. */
export const WATCH_FLAGS = flagTable({
  watch: {
    flags: '-w, --watch',
    description: 'print the list, then every change (ADDED, MODIFIED, DELETED), through outages, until Ctrl-C, SIGTERM or --timeout',
  },
  interval: { flags: '--interval <duration>', description: `with --watch: how often to poll (default ${DEFAULT_INTERVAL})` },
  timeout: { flags: '--timeout <duration>', description: 'with --watch: stop after this long (exit 0; at most 24d)' },
});
