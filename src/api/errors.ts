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
  /** The failure's code (`ECONNREFUSED`, `UND_ERR_SOCKET` …) and the base URL it was trying, for hints. */
  readonly code?: string;
  readonly baseUrl?: string;

  constructor(message: string, cause?: unknown, about: { code?: string; baseUrl?: string } = {}) {
    super(redact(message), { cause });
    this.name = 'NetworkError';
    this.code = about.code;
    this.baseUrl = about.baseUrl;
  }
}

type UndiciFailure = { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };

const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
/** undici's and node's codes for a connection that failed, before the headers or while the body was read. */
const CONNECTION_CODES = new Set([
  ...TIMEOUTS,
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
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
  const err = e as UndiciFailure | undefined;
  return err?.cause?.code ?? err?.code;
}

/** Why a connection failed, in a few words; undefined when `e` is not a connection failure (a bug, a parse error). */
export function networkReason(e: unknown): string | undefined {
  const err = e as UndiciFailure | undefined;
  if (!err || typeof err !== 'object') return undefined;
  if (err.name === 'AbortError' || err.code === 'UND_ERR_ABORTED') return 'aborted';
  if (err.code && TIMEOUTS.has(err.code)) return 'timed out';
  const code = networkCode(e);
  if (!code || !CONNECTION_CODES.has(code)) return undefined;
  if (code === 'UND_ERR_SOCKET' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return `the connection was cut (${err.message ?? code})`;
  return code;
}
