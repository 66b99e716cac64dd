import { flagTable, optionOf, type FlagSpec, type FlagsOf } from '../../cli/flags';
import { UsageError } from '../../runtime/errors';
import { parseDuration } from '../../text/duration';
import { parseSelectors, type SessionSelectors } from '../../selection/selectors';
import { INCLUDE_ARCHIVED_FLAGS, SELECTOR_FLAGS } from '../sessions/selectors';

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

/** The session selectors `svc top` takes, which its header shows as typed. */
const TOP_SELECTORS = flagTable({ ...SELECTOR_FLAGS, ...INCLUDE_ARCHIVED_FLAGS });

/** `svc top`'s flags. */
export const TOP_FLAGS = flagTable({
  ...TOP_SELECTORS,
  environment: {
    flags: '--environment <environment>',
    description: 'the environment whose work rows view 2 shows (ID or name; a missing one is exit 6 before the board opens)',
  },
  interval: { flags: '--interval <duration>', description: `how often to poll the fleet (default ${DEFAULT_INTERVAL})` },
  readonly: { flags: '--readonly', description: 'turn the write keys off (i, c, a, y, n), on the board and in the live view Enter opens' },
});

export function parseTop(args: string[], f: FlagsOf<typeof TOP_FLAGS>): TopOptions {
  if (args.length) throw new UsageError(`svc top takes no arguments (got "${args[0]}"); select sessions with --status, --agent, -l, …`);
  if (f.environment !== undefined && f.environment.trim() === '') throw new UsageError('--environment takes an environment ID or name');
  const selection = Object.entries(TOP_SELECTORS)
    .filter(([k]) => f[k] !== undefined && f[k] !== false)
    .map(([k, spec]) => {
      const flag = shortOrLongFlag(spec);
      return f[k] === true ? flag : `${flag} ${String(f[k])}`;
    })
    .join(' ');
  return {
    selectors: parseSelectors(f),
    selection: selection || undefined,
    environment: f.environment,
    intervalMs: parseDuration(f.interval ?? DEFAULT_INTERVAL, '--interval'),
    readonly: Boolean(f.readonly),
  };
}

/** A flag as the header shows it: by its short form where it has one (`-l`), else its long one. */
function shortOrLongFlag(spec: FlagSpec): string {
  const o = optionOf(spec);
  return o.short ?? o.long ?? spec.flags;
}
