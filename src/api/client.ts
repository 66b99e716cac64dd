import type { Readable } from 'node:stream';
import { discard, readText, request, type Response, type ResponseBody } from './http';
import type { ErrorObject } from '../wire/errors';
import { IDEMPOTENCY_HEADER, REQUEST_ID_HEADER, VERSION_HEADER } from '../wire/version';
import { backoffMs, PEER_WAIT_CAP_MS, peerWaitMs } from './backoff';
import { ApiError, NetworkError, networkCode, networkReason, PROXY_AUTH } from './errors';
import { viaProxy, type Network } from './network';
import { retryAfterMs } from './retry-after';
import { addSecret, addSecretMembers, maskMembers, redact } from '../text/redact';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type Query = Record<string, string | number | boolean | undefined | null>;

/** A body sent as-is; `open` is called once per attempt so a retry re-sends the identical bytes. */
export interface RawBody {
  contentType: string;
  length?: number;
  open: () => Buffer | Readable;
}

export interface RequestSpec {
  method: Method;
  path: string;
  query?: Query;
  json?: unknown;
  body?: RawBody;
  headers?: Record<string, string>;
  /** Sent as `Idempotency-Key`; with it, writes are retried on network errors and 5xx. */
  idempotencyKey?: string;
  /** False only for `/v1/files*` by explicit choice (compatibility format). */
  versionHeader?: boolean;
  /** Overrides the client's credential (worker tokens). */
  credential?: string;
  accept?: string;
  signal?: AbortSignal;
  /** Per-request timeout; undefined uses the client's. 0 disables it (long polls, streams). */
  timeoutMs?: number;
  /** Overrides the client's retries: a stream counts its own reconnect attempts (docs/behaviour.md: streams). */
  maxRetries?: number;
  /** The operation's documented success, checked by json(); default `object`. */
  expect?: Expect;
}

/**
 * What an operation answers when it succeeds; anything else is exit 9, never success (docs/behaviour.md). `object`: a JSON
 * object (any 2xx but 204/205: 202 answers events). `object-or-none`: deletes and archives, 204 or 200 with an
 * object or nothing (docs/service.md: clients accept either). `any`: JSON or nothing, for shapes the caller reads itself.
 */
export type Expect = 'object' | 'object-or-none' | 'any';

export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string>;
  data: T;
}

export interface StreamResponse {
  status: number;
  headers: Record<string, string>;
  body: ResponseBody;
}

export interface ClientOptions {
  baseUrl: string;
  credential?: string;
  apiVersion: string;
  userAgent: string;
  maxRetries: number;
  timeoutMs?: number;
  debug?: (line: string) => void;
  /** With `debug`: every request's and response's headers and body too (SVC_DEBUG=api), secrets masked. */
  debugApi?: boolean;
  /** Called once per client for a response carrying Deprecation or Sunset. */
  warn?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** The proxy variables and extra certificates in force (docs/decisions/network.md); undefined: the process's environment. */
  network?: Network;
  /** Aborts every request of this client (Ctrl-C). */
  signal?: AbortSignal;
}

export class ApiClient {
  readonly baseUrl: string;
  private warned = false;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(private readonly opts: ClientOptions) {
    addSecret(opts.credential);
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.random = opts.random ?? Math.random;
    this.now = opts.now ?? Date.now;
  }

  /** A client that speaks with another credential (worker tokens), sharing everything else. */
  withCredential(credential: string): ApiClient {
    return new ApiClient({ ...this.opts, credential });
  }

  get maxRetries(): number {
    return this.opts.maxRetries;
  }

  /**
   * Sends a request, retrying per docs/behaviour.md, reads the whole body (a failure mid-body is a network failure, retried
   * like one) and parses it as the operation's documented success (`spec.expect`).
   */
  async json<T = unknown>(spec: RequestSpec): Promise<ApiResponse<T>> {
    return this.exchange(spec, async (res) => {
      const text = await readText(res.body);
      if (this.opts.debugApi) this.log(`< body ${bodyForLog(text)}`);
      return { status: res.status, headers: res.headers, data: successBody(res, text, spec) as T };
    });
  }

  /** Sends a request, retrying per docs/behaviour.md, and returns the open body for the caller to stream. */
  async send(spec: RequestSpec): Promise<StreamResponse> {
    return this.exchange(spec, async (res) => res);
  }

  /** One request with its retries; `take` reads the successful response within the attempt, so a body cut is retried too. */
  private async exchange<T>(spec: RequestSpec, take: (res: StreamResponse) => Promise<T>): Promise<T> {
    const retriableWrite = spec.method === 'GET' || spec.idempotencyKey !== undefined;
    for (let attempt = 1; ; attempt++) {
      const canRetry = attempt <= (spec.maxRetries ?? this.opts.maxRetries);
      let res: StreamResponse;
      try {
        res = await this.once(spec, attempt);
        if (res.status < 300) return await this.read(res, take);
      } catch (e) {
        // A proxy that asks for credentials asks again: not retried.
        if (e instanceof NetworkError && e.code !== PROXY_AUTH && canRetry && retriableWrite && !(spec.signal ?? this.opts.signal)?.aborted) {
          await this.backoff(attempt, e.message);
          continue;
        }
        throw e;
      }
      if (res.status < 400) throw redirected(res, this.url(spec.path, spec.query), this.baseUrl);
      const err = await toApiError(res, this.now);
      if (err.type === 'rate_limit_reached_error' || (err.status === 429 && err.type !== 'exceeded_current_quota_error' && !err.malformed)) {
        const asked = err.retryAfterMs;
        // Over the cap svc gives up (exit 8) rather than hang on a peer's word.
        if (asked !== undefined && asked > PEER_WAIT_CAP_MS) throw err;
        if (!canRetry) throw err;
        // Never shorter than asked (jitter adds up to 10 %), never under the back-off, never over the cap.
        const ms = Math.round(peerWaitMs(asked === undefined ? undefined : asked * (1 + this.random() * 0.1), backoffMs(attempt, this.random)));
        this.log(`retry in ${ms}ms (${asked === undefined ? 'rate limited' : `Retry-After ${Math.round(asked / 1000)}s`})`);
        await this.sleep(ms);
        continue;
      }
      if (err.status >= 500 && canRetry && retriableWrite) {
        await this.backoff(attempt, `status ${err.status}`);
        continue;
      }
      throw err;
    }
  }

  /** A connection that fails while the body is read (cut, stalled past the timeout) is a NetworkError too. */
  private async read<T>(res: StreamResponse, take: (res: StreamResponse) => Promise<T>): Promise<T> {
    try {
      return await take(res);
    } catch (e) {
      const reason = e instanceof NetworkError ? undefined : networkReason(e);
      if (reason === undefined) throw e;
      this.log(`< network error while reading the body: ${reason}`);
      throw new NetworkError(`the connection to ${this.baseUrl} failed while reading the response: ${reason}`, e, {
        code: networkCode(e),
        baseUrl: this.baseUrl,
      });
    }
  }

  private async backoff(attempt: number, why: string): Promise<void> {
    const ms = backoffMs(attempt, this.random);
    this.log(`retry in ${ms}ms (${why})`);
    await this.sleep(ms);
  }

  private async once(spec: RequestSpec, attempt: number): Promise<StreamResponse> {
    const url = this.url(spec.path, spec.query);
    const headers: Record<string, string> = {
      'user-agent': this.opts.userAgent,
      accept: spec.accept ?? 'application/json',
      ...spec.headers,
    };
    if (spec.versionHeader !== false) headers[VERSION_HEADER] = this.opts.apiVersion;
    const credential = spec.credential ?? this.opts.credential;
    addSecret(credential);
    if (credential) headers.authorization = `Bearer ${credential}`;
    if (spec.idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = spec.idempotencyKey;
    let body: Buffer | Readable | undefined;
    if (spec.json !== undefined) {
      addSecretMembers(spec.json);
      headers['content-type'] = 'application/json';
      body = Buffer.from(JSON.stringify(spec.json));
    } else if (spec.body) {
      headers['content-type'] = spec.body.contentType;
      if (spec.body.length !== undefined) headers['content-length'] = String(spec.body.length);
      body = spec.body.open();
    }
    const timeout = spec.timeoutMs ?? this.opts.timeoutMs;
    const started = this.now();
    // The proxy is named before the request: a proxy URL svc cannot use is exit 2, not a network failure.
    const via = viaProxy(url, this.opts.network);
    this.log(`> ${spec.method} ${url} attempt=${attempt}${spec.idempotencyKey ? ` idempotency-key=${spec.idempotencyKey}` : ''}${via}`);
    if (this.opts.debugApi) {
      this.logHeaders('>', headers);
      if (spec.json !== undefined) this.log(`> body ${JSON.stringify(maskMembers(spec.json))}`);
      else if (spec.body) this.log(`> body (${spec.body.contentType}${spec.body.length === undefined ? '' : `, ${spec.body.length} bytes`}, not shown)`);
    }
    let res: Response;
    try {
      res = await request(url, {
        method: spec.method,
        headers,
        body,
        signal: spec.signal ?? this.opts.signal,
        headersTimeout: timeout || undefined,
        bodyTimeout: timeout === 0 ? 0 : timeout,
        network: this.opts.network,
      });
    } catch (e) {
      const reason = networkReason(e) ?? networkCode(e) ?? (e as Error)?.message ?? 'network error';
      this.log(`< network error after ${this.now() - started}ms: ${reason}`);
      throw new NetworkError(`cannot reach ${this.baseUrl}: ${reason}`, e, { code: networkCode(e), baseUrl: this.baseUrl });
    }
    const resHeaders = flatHeaders(res.headers);
    this.log(`< ${res.statusCode} ${spec.method} ${spec.path} ${this.now() - started}ms request_id=${resHeaders[REQUEST_ID_HEADER] ?? '-'}`);
    if (this.opts.debugApi) this.logHeaders('<', resHeaders);
    this.checkDeprecation(resHeaders);
    return { status: res.statusCode, headers: resHeaders, body: res.body };
  }

  url(path: string, query?: Query): string {
    let url = this.baseUrl + path;
    if (query) {
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) qs.set(k, String(v));
      const s = qs.toString();
      if (s) url += (url.includes('?') ? '&' : '?') + s;
    }
    return url;
  }

  private checkDeprecation(h: Record<string, string>): void {
    if (this.warned || (!h.deprecation && !h.sunset)) return;
    this.warned = true;
    const sunset = h.sunset ? ` and is retired after ${h.sunset}` : '';
    this.opts.warn?.(`warning: API version ${this.opts.apiVersion} is deprecated${sunset}; upgrade svc`);
  }

  private log(line: string): void {
    this.opts.debug?.(redact(`debug: ${line}`));
  }

  private logHeaders(dir: '>' | '<', headers: Record<string, string>): void {
    for (const [k, v] of Object.entries(headers)) this.log(`${dir} ${k}: ${k === 'authorization' ? v.replace(/ .*/, ' ***') : v}`);
  }
}

/** The body as the debug log shows it: JSON with secret members masked, anything else with its control characters escaped. */
function bodyForLog(text: string): string {
  if (text === '') return '(empty)';
  try {
    return JSON.stringify(maskMembers(JSON.parse(text)));
  } catch {
    return JSON.stringify(text);
  }
}

/** The successful answer's data, when it is the operation's documented success; otherwise exit 9 (ApiError). */
function successBody(res: StreamResponse, text: string, spec: RequestSpec): unknown {
  const expect = spec.expect ?? 'object';
  const requestId = res.headers[REQUEST_ID_HEADER];
  let data: unknown;
  try {
    data = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ApiError({ status: res.status, message: `the service answered ${res.status} with a body that is not JSON`, requestId });
  }
  if (expect === 'any') return data;
  const isObject = data !== null && typeof data === 'object' && !Array.isArray(data);
  if (expect === 'object-or-none') {
    if (res.status === 204) return undefined;
    if (res.status === 200 && (data === undefined || isObject)) return data;
  } else if (isObject && res.status !== 204 && res.status !== 205) {
    return data;
  }
  const got =
    data === undefined
      ? 'no body'
      : isObject
        ? 'an object'
        : `a body of another shape (${Array.isArray(data) ? 'an array' : data === null ? 'null' : typeof data})`;
  const due = expect === 'object' ? 'an object' : '204, or 200 with an object';
  throw new ApiError({
    status: res.status,
    message: `the service answered ${res.status} with ${got}, but ${spec.method} ${spec.path} answers ${due}`,
    requestId,
  });
}

/**
 * A 3xx: never followed (the Authorization header must not reach another origin, and a base URL behind a
 * redirect would make every command "succeed"). Exit 9, naming the Location and the base URL it suggests.
 */
function redirected(res: StreamResponse, url: string, baseUrl: string): ApiError {
  const location = res.headers.location;
  let where = 'with no Location';
  let fix = '';
  if (location) {
    let target = location;
    try {
      target = new URL(location, url).href;
    } catch {
      // an unparsable Location is named as given
    }
    where = `redirecting to ${target}`;
    const tail = url.slice(baseUrl.length);
    if (tail && target.endsWith(tail) && target.length > tail.length) fix = `, perhaps to ${target.slice(0, -tail.length)}`;
  }
  discard(res.body);
  return new ApiError({
    status: res.status,
    message: `the service answered ${res.status} ${where}; svc does not follow redirects: fix the base URL (--base-url, SVC_BASE_URL or the profile's base_url)${fix}`,
    requestId: res.headers[REQUEST_ID_HEADER],
  });
}

async function toApiError(res: StreamResponse, now: () => number): Promise<ApiError> {
  const requestId = res.headers[REQUEST_ID_HEADER];
  const retryAfter = retryAfterMs(res.headers['retry-after'], now());
  let text = '';
  try {
    text = await readText(res.body);
  } catch {
    // a body cut off mid-way is reported by its status alone
  }
  let error: ErrorObject | undefined;
  try {
    const parsed = JSON.parse(text) as { error?: ErrorObject };
    if (parsed && typeof parsed.error === 'object' && parsed.error && typeof parsed.error.type === 'string') {
      error = { ...parsed.error, message: typeof parsed.error.message === 'string' ? parsed.error.message : `HTTP ${res.status}` };
    }
  } catch {
    // another shape: an infrastructure failure
  }
  return new ApiError({
    status: res.status,
    error,
    message: error ? undefined : `the service answered ${res.status} with a body of another shape`,
    requestId,
    retryAfterMs: retryAfter,
  });
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
