import type { FlagsOf, FlagTable } from '../../cli/action';
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

/** `svc emulator`'s flags (declared in ./index.ts). */
export const EMULATOR_FLAGS = {
  faults: 'string',
  port: 'string',
  heartbeatMs: 'string',
  quiet: 'switch',
  log: 'string',
  webhookUrl: 'string',
  host: 'string',
  state: 'string',
  exportsFile: 'string',
} as const satisfies FlagTable;
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
