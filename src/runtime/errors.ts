import { ApiError, NetworkError, networkCode, networkReason, PROXY_AUTH } from '../api/errors';

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
 * A session that a command waited on ended in a state a pipeline must tell apart (docs/behaviour.md "exit codes a pipeline can
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
    readonly detail: { sessionId?: string; errorType?: string; terminated?: boolean; archived?: boolean } = {},
  ) {
    super(message, detail.sessionId, hint);
  }

  protected override members(): Record<string, unknown> {
    return {
      state: this.detail.archived ? 'archived' : this.detail.terminated ? 'terminated' : 'failed',
      ...(this.detail.errorType ? { error_type: this.detail.errorType } : {}),
    };
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

/** The one map from errors to exit codes (docs/behaviour.md "Errors and exit codes"). */
export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError || err instanceof ConfigError) return 2;
  // A proxy that asks for credentials (407) is a credential svc lacks: exit 4 (docs/behaviour.md, docs/decisions/network.md).
  if (err instanceof NoCredentialError || (err instanceof NetworkError ? err.code : networkCode(err)) === PROXY_AUTH) return 4;
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

/** The sentence `withNote` added, if any. */
export const noteOf = (err: unknown): string | undefined => (err && typeof err === 'object' ? (err as { [NOTE]?: string })[NOTE] : undefined);

/** An error svc raises on purpose (its message is the line), not a failure it did not expect. */
export function isKnown(err: unknown): boolean {
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
