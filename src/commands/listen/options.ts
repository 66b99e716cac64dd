import { flagTable, oneOf, type FlagsOf } from '../../cli/flags';
import { parseCount } from '../../config/settings';
import { UsageError } from '../../runtime/errors';
import { parseDuration } from '../../text/duration';
import { hasSelectors, parseSelectors } from '../../selection/selectors';
import { everyEvent, parseEventFilter, type EventFilter } from '../../listen/events';
import { pick, SELECTOR_FLAGS, type Picked } from '../sessions/selectors';

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

/** `--max-streams`, `--interval` and `--timeout` of a reader of the fleet's events (listen, approve serve). */
export const FLEET_READER_FLAGS = flagTable({
  maxStreams: { flags: '--max-streams <n>', description: `streams open at once; sessions beyond are polled (default ${DEFAULT_MAX_STREAMS})` },
  interval: {
    flags: '--interval <duration>',
    description: `how often the fleet and the sessions without a stream are polled (default ${DEFAULT_INTERVAL})`,
  },
  timeout: { flags: '--timeout <duration>', description: 'stop after this long (exit 0); default: until Ctrl-C' },
});

/** `svc listen`'s flags. */
export const LISTEN_FLAGS = flagTable({
  forwardTo: { flags: '--forward-to <url>', description: 'POST each event to this URL, signed (Svc-Signature: t=UNIX,v1=HEX)' },
  exec: { flags: '--exec <cmd>', description: 'run this shell command once per event, the JSON on its standard input' },
  otlpEndpoint: {
    flags: '--otlp-endpoint <url>',
    description: "fold the events into spans and post each settled turn's spans (OTLP/HTTP JSON) to this collector's base URL + /v1/traces",
  },
  events: {
    flags: '--events <types>',
    description: 'only these event types, comma-separated (agent.* for a family); session.requires_action is derived by svc',
  },
  secretFile: {
    flags: '--secret-file <file>',
    description: 'sign with the secret in this file, mode 600, one line (default: one generated in the config folder)',
  },
  printSecret: { flags: '--print-secret', description: 'print the signing secret (for the receiver) and exit' },
  maxStreams: FLEET_READER_FLAGS.maxStreams,
  interval: FLEET_READER_FLAGS.interval,
  state: {
    flags: '--state <file>',
    description: "keep each session's last settled event in FILE (one listener per file); a restart resumes after it, sending nothing again",
  },
  timeout: FLEET_READER_FLAGS.timeout,
  ...SELECTOR_FLAGS,
});

export function parseListen(args: string[], f: FlagsOf<typeof LISTEN_FLAGS>): ListenCommand {
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
  const selectors = parseSelectors(f);
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
