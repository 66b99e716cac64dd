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

/** undici's codes for the response's headers or its body too slow, and for a request it refuses to build. */
export const HEADERS_TIMEOUT = 'UND_ERR_HEADERS_TIMEOUT';
export const BODY_TIMEOUT = 'UND_ERR_BODY_TIMEOUT';
/** A header value with a line break, a bad header name: the same request fails the same way every time. */
export const INVALID_REQUEST = 'UND_ERR_INVALID_ARG';
/** http.ts's codes for a proxy that asked for credentials (407: exit 4), or refused or could not be reached (exit 10). */
export const PROXY_AUTH = 'ERR_SVC_PROXY_AUTH';
export const PROXY_FAILED = 'ERR_SVC_PROXY_FAILED';
const PROXY_CODES = new Set([PROXY_AUTH, PROXY_FAILED]);

const TIMEOUTS = new Set([HEADERS_TIMEOUT, BODY_TIMEOUT, 'UND_ERR_CONNECT_TIMEOUT']);
/** undici's and Node's codes for a connection that failed, before the headers or while the body was read. */
const CONNECTION_CODES = new Set([
  ...TIMEOUTS,
  ...PROXY_CODES,
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

/** OpenSSL's and Node's codes for a certificate svc does not trust: a private CA not given, an expired or misnamed one. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The most specific code of a connection failure. */
export function networkCode(e: unknown): string | undefined {
  const err = e as Failure | undefined;
  // A proxy's failure is named by its own code; the cause is undici's account of it.
  if (err?.code && PROXY_CODES.has(err.code)) return err.code;
  return err?.cause?.code ?? err?.code;
}

/** Why a connection failed, in a few words; undefined when `e` is not a connection failure (a bug, a parse error). */
export function networkReason(e: unknown): string | undefined {
  const err = e as Failure | undefined;
  if (!err || typeof err !== 'object') return undefined;
  if (err.name === 'AbortError' || err.code === 'UND_ERR_ABORTED') return 'aborted';
  if (err.code && TIMEOUTS.has(err.code)) return 'timed out';
  if (err.code && PROXY_CODES.has(err.code)) return err.message;
  const code = networkCode(e);
  if (code && UNTRUSTED.has(code)) return `its certificate is not trusted (${code}): is SVC_CA_FILE set to its CA's PEM file?`;
  if (!code || !CONNECTION_CODES.has(code)) return undefined;
  // undici says `other side closed` (Node `socket hang up` or `aborted`) for a connection the other side closed.
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH')
    return `the connection was cut (${/^(aborted|socket hang up|other side closed)$/.test(err.message ?? '') ? 'the other side closed it' : (err.message ?? code)})`;
  return code;
}

/** A read whose failure (the service's answer or the network) leaves its result absent rather than failing the command. */
export async function tolerated<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (e) {
    if (!(e instanceof ApiError || e instanceof NetworkError)) throw e;
    return undefined;
  }
}
