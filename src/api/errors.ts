import type { ErrorObject } from '../wire/errors';
import { redact } from '../text/redact';

/** The service answered with an error status. `type` is undefined when the body had another shape. */
export class ApiError extends Error {
  readonly status: number;
  readonly type?: string;
  readonly param?: string;
  readonly requestId?: string;
  /** The body was not the spec's error object (an infrastructure failure). */
  readonly malformed: boolean;
  /** The wait the answer's `Retry-After` asked for (seconds or an HTTP date), in ms; never clamped here. */
  readonly retryAfterMs?: number;

  constructor(init: { status: number; error?: ErrorObject; message?: string; requestId?: string; retryAfterMs?: number }) {
    // A server message may quote what it was sent (an Authorization header): redacted before anything logs it.
    super(redact(init.error?.message ?? init.message ?? `HTTP ${init.status}`));
    this.name = 'ApiError';
    this.status = init.status;
    this.type = init.error?.type;
    this.param = init.error?.param;
    this.requestId = init.error?.request_id ?? init.requestId;
    this.malformed = !init.error;
    this.retryAfterMs = init.retryAfterMs;
  }

  toErrorObject(): ErrorObject {
    const o: ErrorObject = { type: this.type ?? 'unknown_error', message: this.message };
    if (this.param !== undefined) o.param = this.param;
    if (this.requestId !== undefined) o.request_id = this.requestId;
    return o;
  }
}

/** No response, or the connection failed mid-body: refused, reset, DNS, cut, or the per-request timeout. */
export class NetworkError extends Error {
  /** The failure's code (`ECONNREFUSED`, `ECONNRESET` …) and the base URL it was trying, for hints. */
  readonly code?: string;
  readonly baseUrl?: string;

  constructor(message: string, cause?: unknown, about: { code?: string; baseUrl?: string } = {}) {
    super(redact(message), { cause });
    this.name = 'NetworkError';
    this.code = about.code;
    this.baseUrl = about.baseUrl;
  }
}

type Failure = { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };

/** The codes of http.ts's own failures: the response's headers or its body too slow, a request Node refuses to build. */
export const HEADERS_TIMEOUT = 'ERR_SVC_HEADERS_TIMEOUT';
export const BODY_TIMEOUT = 'ERR_SVC_BODY_TIMEOUT';
/** A header value with a line break, a bad header name: the same request fails the same way every time. */
export const INVALID_REQUEST = 'ERR_SVC_INVALID_REQUEST';

const TIMEOUTS = new Set([HEADERS_TIMEOUT, BODY_TIMEOUT]);
/** Node's codes (and http.ts's) for a connection that failed, before the headers or while the body was read. */
const CONNECTION_CODES = new Set([
  ...TIMEOUTS,
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** The most specific code of a connection failure. */
export function networkCode(e: unknown): string | undefined {
  const err = e as Failure | undefined;
  return err?.cause?.code ?? err?.code;
}

/** Why a connection failed, in a few words; undefined when `e` is not a connection failure (a bug, a parse error). */
export function networkReason(e: unknown): string | undefined {
  const err = e as Failure | undefined;
  if (!err || typeof err !== 'object') return undefined;
  if (err.name === 'AbortError') return 'aborted';
  if (err.code && TIMEOUTS.has(err.code)) return 'timed out';
  const code = networkCode(e);
  if (!code || !CONNECTION_CODES.has(code)) return undefined;
  // Node says `socket hang up` (before the headers) or `aborted` (mid-body) for a connection the other side closed.
  if (code === 'ECONNRESET')
    return `the connection was cut (${/^(aborted|socket hang up)$/.test(err.message ?? '') ? 'the other side closed it' : (err.message ?? code)})`;
  return code;
}
