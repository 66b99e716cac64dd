import { flagTable, type FlagsOf } from '../../cli/flags';
import { UsageError } from '../../runtime/errors';
import { parseDuration } from '../../text/duration';
import { parseHostPort, type HostPort } from '../../net/host-port';

/** `svc work stats ENV [-w] [--interval D] [--timeout D] [--serve HOST:PORT]`. */
export interface WorkStatsOptions {
  env: string;
  watch: boolean;
  intervalMs: number;
  timeoutMs?: number;
  serve?: HostPort;
}

export const DEFAULT_STATS_INTERVAL = '10s';

/** `svc work stats`'s flags. */
export const WORK_STATS_FLAGS = flagTable({
  watch: { flags: '-w, --watch', description: 'count again every --interval until Ctrl-C, SIGTERM or --timeout (off a terminal: one JSON line each)' },
  interval: { flags: '--interval <duration>', description: `with --watch or --serve: how often to count (default ${DEFAULT_STATS_INTERVAL})` },
  timeout: { flags: '--timeout <duration>', description: 'with --watch: stop after this long (exit 0)' },
  serve: {
    flags: '--serve <host:port>',
    description: "serve the same JSON over HTTP at / (and /healthz) for a scaler such as KEDA's metrics-api; counted at most once an --interval",
  },
});
type WorkStatsFlags = FlagsOf<typeof WORK_STATS_FLAGS>;

/** Exit 2 before any request for flags that cannot work together. */
export function parseWorkStats([env]: string[], flags: WorkStatsFlags): WorkStatsOptions {
  const watch = Boolean(flags.watch);
  const serve = flags.serve === undefined ? undefined : parseHostPort(flags.serve, '--serve');
  if (serve && watch) throw new UsageError('--serve and --watch are two ways to repeat the count: give one');
  if (!watch && !serve && flags.interval !== undefined) throw new UsageError('--interval applies with --watch or --serve');
  if (!watch && flags.timeout !== undefined) throw new UsageError('--timeout applies with --watch');
  return {
    env,
    watch,
    serve,
    intervalMs: parseDuration(flags.interval ?? DEFAULT_STATS_INTERVAL, '--interval'),
    timeoutMs: flags.timeout === undefined ? undefined : parseDuration(flags.timeout, '--timeout'),
  };
}
