import { escapeControls, escapeJsonControls } from './output/controls';
import { ApiError, NetworkError, networkReason } from './api/errors';
import { RESOURCE_LIST, resourceOf, type ResourceEntry } from './api/manifest';
import { maskUrlPassword, redact } from './text/redact';
import { ERROR_RECOVERY } from './wire/errors';

/** Bad flags, arguments or input files: exit 2, checked before any request. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Unreadable or corrupt configuration: exit 2, the file left untouched. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** No credential anywhere: exit 4. */
export class NoCredentialError extends Error {
  override name = 'NoCredentialError';
  constructor(message = 'no API key configured: run `svc auth login`, set SVC_API_KEY, or pass --api-key') {
    super(message);
  }
}

/** A worker-only operation without an environment work key (exit 4, saying where the key goes). */
export class NoEnvironmentKeyError extends NoCredentialError {
  override name = 'NoEnvironmentKeyError';
  constructor() {
    super('no environment work key configured: set SVC_ENVIRONMENT_KEY or run `svc config set environment_key - < key.txt`');
  }
}

/**
 * A session that a command waited on ended in a state a pipeline must tell apart (CLI.md "exit codes a pipeline can
 * trust"): its line names the session and the command that moves it on; its JSON form carries `session_id`.
 */
export abstract class SessionEndError extends Error {
  /** The `type` of the JSON error object. */
  abstract readonly type: string;
  constructor(
    message: string,
    readonly sessionId?: string,
    /** The recovery shown under the line on a terminal (the spec's, for a known `error_type`). */
    readonly hint?: string,
  ) {
    super(message);
  }

  /** The JSON error object: the service's shape, with the session and what only this ending has. */
  toErrorObject(): Record<string, unknown> {
    return { type: this.type, message: this.message, ...(this.sessionId ? { session_id: this.sessionId } : {}), ...this.members() };
  }

  protected members(): Record<string, unknown> {
    return {};
  }
}

/** The session turn ended in session.error or stopped unfinished, or the session was terminated: exit 11. */
export class SessionFailedError extends SessionEndError {
  override name = 'SessionFailedError';
  readonly type = 'session_failed';
  constructor(
    message: string,
    hint?: string,
    readonly detail: { sessionId?: string; errorType?: string; terminated?: boolean } = {},
  ) {
    super(message, detail.sessionId, hint);
  }

  protected override members(): Record<string, unknown> {
    return { state: this.detail.terminated ? 'terminated' : 'failed', ...(this.detail.errorType ? { error_type: this.detail.errorType } : {}) };
  }
}

/** The turn was interrupted, or input waits behind an interrupt until a Continue: exit 12. */
export class SessionInterruptedError extends SessionEndError {
  override name = 'SessionInterruptedError';
  readonly type = 'session_interrupted';
  constructor(
    message: string,
    sessionId: string,
    /** Input is queued behind the interrupt. */
    readonly held: boolean,
  ) {
    super(message, sessionId);
  }

  protected override members(): Record<string, unknown> {
    return { state: 'interrupted', held: this.held };
  }
}

/** The turn stopped waiting on a human (`requires_action`): a tool confirmation or a custom tool result: exit 13. */
export class SessionWaitingError extends SessionEndError {
  override name = 'SessionWaitingError';
  readonly type = 'session_waiting';
  constructor(
    message: string,
    sessionId: string,
    readonly eventIds: string[],
  ) {
    super(message, sessionId);
  }

  protected override members(): Record<string, unknown> {
    return { state: 'waiting', event_ids: this.eventIds };
  }
}

/** `--timeout` of run / sessions wait elapsed: exit 124. */
export class WaitTimeoutError extends Error {
  override name = 'WaitTimeoutError';
}

/** Ctrl-C (or SIGTERM): exit 130. The message may say what became of the work the command had started. */
export class InterruptedError extends Error {
  override name = 'InterruptedError';
  constructor(message = 'interrupted') {
    super(message);
  }
}

/** A command's own non-zero outcome that is not an error of the service (e.g. plugins validate: ok=false). */
export class ExitCodeError extends Error {
  override name = 'ExitCodeError';
  /** `silent`: the outcome is the exit code alone, already shown on stdout (`svc diff` exits 1 on changes). */
  constructor(
    readonly exitCode: number,
    message: string,
    readonly silent = false,
  ) {
    super(message);
  }
}

const BY_TYPE: Record<string, number> = {
  invalid_parameter_error: 3,
  invalid_request_error: 3,
  authentication_error: 4,
  permission_denied_error: 5,
  resource_not_found_error: 6,
  conflict_error: 7,
  failed_precondition_error: 7,
  rate_limit_reached_error: 8,
  exceeded_current_quota_error: 8,
  server_error: 9,
};

function byStatus(status: number): number {
  if (status >= 500) return 9;
  switch (status) {
    case 400:
      return 3;
    case 401:
      return 4;
    case 403:
      return 5;
    case 404:
      return 6;
    case 409:
    case 412:
      return 7;
    case 429:
      return 8;
    default:
      return 1;
  }
}

/** The one map from errors to exit codes (CLI.md "Errors and exit codes"). */
export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError || err instanceof ConfigError) return 2;
  if (err instanceof NoCredentialError) return 4;
  if (err instanceof ApiError) {
    if (err.malformed) return 9;
    return (err.type && BY_TYPE[err.type]) || byStatus(err.status);
  }
  // A connection that failed while a caller streamed a body (download, stream) is a network failure too.
  if (err instanceof NetworkError || networkReason(err) !== undefined) return 10;
  if (err instanceof SessionFailedError) return 11;
  if (err instanceof SessionInterruptedError) return 12;
  if (err instanceof SessionWaitingError) return 13;
  if (err instanceof WaitTimeoutError) return 124;
  if (err instanceof InterruptedError) return 130;
  if (err instanceof ExitCodeError) return err.exitCode;
  return 1;
}

const NOTE = Symbol('svc.note');

/** Adds a sentence to an error's line (not to its JSON form, which stays the service's error object). */
export function withNote<E extends object>(err: E, note: string): E {
  Object.defineProperty(err, NOTE, { value: note, enumerable: false });
  return err;
}

/**
 * The one-line message of CLI.md: `error: MESSAGE (type=… status=… param=… request_id=…)`, then any note. Secrets
 * are redacted; line breaks become spaces; other control characters are escaped so the service or an argument
 * cannot move the cursor, ring the bell or retitle the window (stderr piped through `tee` still ends on a terminal).
 */
export function errorLine(err: unknown): string {
  const line = baseLine(err);
  const note = err && typeof err === 'object' ? (err as { [NOTE]?: string })[NOTE] : undefined;
  return printable(note ? `${line}; ${note}` : line);
}

function baseLine(err: unknown): string {
  if (err instanceof ApiError) {
    const parts: string[] = [];
    if (err.type) parts.push(`type=${err.type}`);
    parts.push(`status=${err.status}`);
    if (err.param) parts.push(`param=${err.param}`);
    if (err.requestId) parts.push(`request_id=${err.requestId}`);
    return `error: ${err.message} (${parts.join(' ')})`;
  }
  if (isKnown(err)) return `error: ${(err as Error).message}`;
  const reason = networkReason(err);
  if (reason !== undefined) return `error: the connection failed: ${reason}`;
  const message = err instanceof Error ? err.message : String(err);
  return `error: unexpected failure: ${message} (run with --debug for details)`;
}

/** Text for stderr: redacted, one line, its control characters escaped. */
export function printable(text: string): string {
  return escapeControls(
    redact(text)
      .replace(/\s*[\r\n\v\f\u0085\u2028\u2029]+\s*/g, ' ')
      .trim(),
  );
}

/** The JSON form used with an explicit `-o json|ndjson`: the service's error object. */
export function errorJson(err: unknown): string {
  if (err instanceof ApiError || err instanceof SessionEndError) return jsonLine({ error: err.toErrorObject() });
  const type =
    err instanceof UsageError || err instanceof ConfigError
      ? 'usage_error'
      : err instanceof NetworkError || networkReason(err) !== undefined
        ? 'network_error'
        : err instanceof NoCredentialError
          ? 'authentication_error'
          : isKnown(err)
            ? 'cli_error'
            : 'unexpected_error';
  return jsonLine({ error: { type, message: err instanceof Error ? err.message : String(err) } });
}

/** Whether failures print as JSON: the format asked for explicitly (flag, env or profile, never the piped default) is json or ndjson. */
export const jsonFailures = (output: string | undefined): boolean => output === 'json' || output === 'ndjson';

/** A failure's line as CLI.md prints it: the JSON form under an explicit `-o json|ndjson` (`output`), else text. */
export function failureLine(err: unknown, output: string | undefined): string {
  return jsonFailures(output) ? errorJson(err) : errorLine(err);
}

/** One JSON line, redacted, with the controls JSON.stringify leaves raw escaped (the same value). */
function jsonLine(value: unknown): string {
  return escapeJsonControls(redact(JSON.stringify(value)));
}

/** What the hint may name beside the error: the command group and the settings in force (where the base URL came from). */
export interface HintContext {
  group?: string;
  settings?: { baseUrl: { value: string; source: string }; profile: { value: string } };
}

/** The line of advice shown under an error on a terminal. */
export function recoveryHint(err: unknown, about: HintContext = {}): string | undefined {
  const listHint = err instanceof ApiError && err.type === 'resource_not_found_error' && about.group ? notFoundHint(about.group) : undefined;
  if (listHint) return `${ERROR_RECOVERY.resource_not_found_error.replace(/\.$/, '')}; ${listHint}`;
  if (err instanceof ApiError && err.type) return Object.hasOwn(ERROR_RECOVERY, err.type) ? ERROR_RECOVERY[err.type] : undefined;
  if (err instanceof SessionEndError) return err.hint;
  if (err instanceof NetworkError && err.baseUrl && err.code && UNREACHABLE.has(err.code)) {
    const { baseUrl, profile } = about.settings ?? {};
    if (baseUrl?.source === 'profile' && baseUrl.value === err.baseUrl) {
      const flag = profile && profile.value !== 'default' ? ` --profile ${profile.value}` : '';
      return `base_url ${maskUrlPassword(err.baseUrl)} comes from profile "${profile?.value}": change it with \`svc config set base_url URL${flag}\`, or pass --base-url URL`;
    }
    if (err.code === 'ECONNREFUSED' && isLoopback(err.baseUrl)) return 'is the emulator running (`svc emulator`), or is SVC_BASE_URL set?';
  }
  return undefined;
}

/** Connection failures that say the base URL leads nowhere (not a timeout or a cut mid-answer). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Listed under a session, not a resource of the manifest: its hint names the session argument. */
const THREADS = { group: 'threads', noun: 'thread', named: false, args: ' SESSION' };

/**
 * What a 404 in `group` adds: how to list its IDs, and for a resource with names that a name works too (CLI.md).
 * Every resource of the manifest (`rows`, a copy in tests) has one.
 */
export function notFoundHint(group: string, rows: readonly ResourceEntry[] = RESOURCE_LIST): string | undefined {
  const r = group === THREADS.group ? THREADS : resourceOf(group, rows);
  if (!r) return undefined;
  const args = 'args' in r ? r.args : '';
  return r.named
    ? `\`svc ${group} list${args}\` shows each ${r.noun}'s ID with its name, and a name works in place of an ID`
    : `\`svc ${group} list${args}\` shows the ${r.noun} IDs`;
}

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
}

function isKnown(err: unknown): boolean {
  return (
    err instanceof UsageError ||
    err instanceof ConfigError ||
    err instanceof NoCredentialError ||
    err instanceof NetworkError ||
    err instanceof SessionEndError ||
    err instanceof WaitTimeoutError ||
    err instanceof InterruptedError ||
    err instanceof ExitCodeError
  );
}
