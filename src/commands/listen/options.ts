import type { Flags } from '../../cli/action';
import { oneOf } from '../../cli/flags';
import { parseCount } from '../../config/settings';
import { UsageError } from '../../runtime/errors';
import { parseDuration } from '../../text/duration';
import { hasSelectors, parseSelectors, type SelectorFlags } from '../../selection/selectors';
import { everyEvent, parseEventFilter, type EventFilter } from '../../listen/events';
import { pick, type Picked } from '../sessions/selectors';

export const DEFAULT_MAX_STREAMS = 64;
export const DEFAULT_INTERVAL = '2s';

export type Target = { kind: 'forward'; url: string } | { kind: 'exec'; command: string } | { kind: 'otlp'; url: string };

/** `svc listen`'s flags, checked before anything is read or sent. */
export type ListenCommand =
  | { printSecret: true; secretFile?: string }
  | {
      printSecret: false;
      target: Target;
      /** IDs or `-` or selectors; neither: every session. */
      picked: Picked;
      chosen: EventFilter;
      maxStreams: number;
      intervalMs: number;
      timeoutMs?: number;
      secretFile?: string;
      state?: string;
    };

export function parseListen(args: string[], f: Flags): ListenCommand {
  if (f.printSecret) {
    const other = Object.keys(f).filter((k) => k !== 'printSecret' && k !== 'secretFile' && f[k] !== undefined);
    if (args.length || other.length) throw new UsageError('--print-secret prints the signing secret and exits: give it alone (or with --secret-file)');
    return { printSecret: true, secretFile: str(f.secretFile) };
  }
  oneOf(f, { '--forward-to': 'forwardTo', '--exec': 'exec', '--otlp-endpoint': 'otlpEndpoint' }, true);
  const target: Target =
    f.forwardTo !== undefined
      ? { kind: 'forward', url: forwardUrl(String(f.forwardTo)) }
      : f.otlpEndpoint !== undefined
        ? { kind: 'otlp', url: nonEmpty(String(f.otlpEndpoint), '--otlp-endpoint') }
        : { kind: 'exec', command: nonEmpty(String(f.exec), '--exec') };
  if (target.kind !== 'forward' && f.secretFile !== undefined)
    throw new UsageError(
      `--secret-file signs --forward-to deliveries; ${target.kind === 'exec' ? '--exec runs a local command' : '--otlp-endpoint posts spans'} and signs nothing`,
    );
  if (target.kind === 'otlp' && f.events !== undefined) throw new UsageError('--otlp-endpoint folds every event into spans: --events does not apply');
  const selectors = parseSelectors(f as SelectorFlags);
  // Nothing named and no selector is every session, as `stripe listen` hears every event.
  const picked: Picked = args.length || hasSelectors(selectors) ? pick(args, f) : { stdin: false, selectors };
  return {
    printSecret: false,
    target,
    picked,
    chosen: f.events === undefined ? everyEvent : parseEventFilter(String(f.events)),
    maxStreams: parseCount(String(f.maxStreams ?? DEFAULT_MAX_STREAMS), '--max-streams', 1, 10_000),
    intervalMs: parseDuration(String(f.interval ?? DEFAULT_INTERVAL), '--interval'),
    timeoutMs: f.timeout === undefined ? undefined : parseDuration(String(f.timeout), '--timeout'),
    secretFile: str(f.secretFile),
    state: f.state === undefined ? undefined : nonEmpty(String(f.state), '--state'),
  };
}

/** An absolute http(s) URL: anything else could not take a POST. */
function forwardUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--forward-to takes an http:// or https:// URL (got "${text}")`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname)
    throw new UsageError(`--forward-to takes an http:// or https:// URL (got "${text}")`);
  return url.href;
}

function nonEmpty(text: string, flag: string): string {
  if (text.trim() === '') throw new UsageError(`${flag} must not be empty`);
  return text;
}

const str = (v: unknown): string | undefined => (v === undefined ? undefined : String(v));
