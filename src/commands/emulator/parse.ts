import { flagTable, type FlagsOf } from '../../cli/flags';
import { parseCount } from '../../config/settings';
import { parseFaults, type FaultConfig } from '../../emulator/faults';
import { UsageError } from '../../runtime/errors';

/** `svc emulator`: where it listens, what it injects and keeps, where its request log goes. */
export interface EmulatorCommandOptions {
  port: number;
  host: string;
  faults?: FaultConfig;
  statePath?: string;
  heartbeatMs?: number;
  /** `--log FILE` as given: opened (append, 0600) when the command runs, before it listens. */
  log?: string;
  quiet: boolean;
  webhookUrl?: string;
  /** `--exports-file FILE` as given: written once it listens. */
  exportsFile?: string;
}

/** `svc emulator`'s flags. */
export const EMULATOR_FLAGS = flagTable({
  port: { flags: '--port <port>', description: 'port to listen on (0 picks a free one)', default: '4010' },
  host: { flags: '--host <host>', description: 'address to listen on', default: '127.0.0.1' },
  faults: {
    flags: '--faults <spec>',
    description: 'faults to inject, e.g. rate_limit_every=5,retry_after=1,fail_write_every=3,drop_stream_after=20',
  },
  state: { flags: '--state <file>', description: 'keep state in this JSON snapshot (written atomically)' },
  heartbeatMs: { flags: '--heartbeat-ms <ms>', description: 'interval of stream keep-alives (default 30000)' },
  log: { flags: '--log <file>', description: 'append the request log to FILE instead of standard error' },
  quiet: { flags: '--quiet', description: 'drop the request log (start and stop are still said on standard error)' },
  webhookUrl: {
    flags: '--webhook-url <url>',
    description: 'also POST each webhook (e.g. trigger.paused) here as JSON; GET /_emulator/webhooks lists them',
  },
  // Not --env-file: Node 20 takes that as its own option wherever it appears in argv.
  exportsFile: {
    flags: '--exports-file <file>',
    description: 'also write the two export lines to FILE once listening (removed on stop), for a shell to source',
  },
});
type EmulatorFlags = FlagsOf<typeof EMULATOR_FLAGS>;

/**
 * `svc emulator`'s flags, checked before it listens (exit 2). `globalQuiet`: -q/--quiet is also a global option
 * (print only IDs), which commander gives to the program; here it means the verb's own.
 */
export function parseEmulator(_args: string[], flags: EmulatorFlags, globalQuiet = false): EmulatorCommandOptions {
  let faults: FaultConfig | undefined;
  try {
    faults = flags.faults ? parseFaults(flags.faults) : undefined;
  } catch (e) {
    throw new UsageError(`--faults: ${(e as Error).message}`);
  }
  const port = parseCount(flags.port ?? '4010', '--port', 0, 65535);
  const heartbeatMs = flags.heartbeatMs === undefined ? undefined : parseCount(flags.heartbeatMs, '--heartbeat-ms', 1);
  const quiet = Boolean(flags.quiet) || globalQuiet;
  const log = flags.log;
  if (log !== undefined && quiet) throw new UsageError('--log and --quiet cannot be used together: --log FILE keeps the request log, --quiet drops it');
  const webhookUrl = flags.webhookUrl;
  if (webhookUrl !== undefined && !isHttpUrl(webhookUrl)) throw new UsageError(`--webhook-url takes an http:// or https:// URL (got "${webhookUrl}")`);
  return {
    port,
    host: flags.host ?? '127.0.0.1',
    faults,
    statePath: flags.state,
    heartbeatMs,
    log,
    quiet,
    webhookUrl,
    exportsFile: flags.exportsFile,
  };
}

function isHttpUrl(v: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}
