import type { Flags } from '../../cli/action';
import { UsageError } from '../../runtime/errors';
import { parseDuration } from '../../text/duration';
import { parseSelectors, type SelectorFlags, type SessionSelectors } from '../../selection/selectors';

export const DEFAULT_INTERVAL = '2s';

/** `svc top`'s options, checked before anything is drawn or sent. */
export interface TopOptions {
  selectors: SessionSelectors;
  /** The selector flags as typed, for the board's header. */
  selection?: string;
  environment?: string;
  intervalMs: number;
  readonly: boolean;
}

const SELECTOR_FLAGS: Array<[keyof SelectorFlags, string]> = [
  ['status', '--status'],
  ['agent', '--agent'],
  ['requiresAction', '--requires-action'],
  ['olderThan', '--older-than'],
  ['newerThan', '--newer-than'],
  ['idleFor', '--idle-for'],
  ['selector', '-l'],
  ['errorType', '--error-type'],
  ['includeArchived', '--include-archived'],
];

export function parseTop(args: string[], flags: Flags): TopOptions {
  if (args.length) throw new UsageError(`svc top takes no arguments (got "${args[0]}"); select sessions with --status, --agent, -l, …`);
  const f = flags as SelectorFlags & { environment?: string; interval?: string; readonly?: boolean };
  if (f.environment !== undefined && f.environment.trim() === '') throw new UsageError('--environment takes an environment ID or name');
  const selection = SELECTOR_FLAGS.filter(([k]) => f[k] !== undefined && f[k] !== false)
    .map(([k, flag]) => (f[k] === true ? flag : `${flag} ${String(f[k])}`))
    .join(' ');
  return {
    selectors: parseSelectors(f),
    selection: selection || undefined,
    environment: f.environment,
    intervalMs: parseDuration(f.interval ?? DEFAULT_INTERVAL, '--interval'),
    readonly: Boolean(f.readonly),
  };
}
