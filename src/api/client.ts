import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { request } from './http';
import type { ErrorObject } from '../wire/errors';
import { IDEMPOTENCY_HEADER, REQUEST_ID_HEADER, VERSION_HEADER } from '../wire/version';
import { backoffMs } from './backoff';
import { ApiError, NetworkError } from './errors';

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
  /** Overrides the client's retries: a stream counts its own reconnect attempts (CLI.md: streams). */
  maxRetries?: number;
}

export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string>;
  data: T;
}

export interface StreamResponse {
  status: number;
  headers: Record<string, string>;
  body: Dispatcher.ResponseData['body'];
}

export interface ClientOptions {
  baseUrl: string;
  credential?: string;
  apiVersion: string;
  userAgent: string;
  maxRetries: number;
  timeoutMs?: number;
  debug?: (line: string) => void;
  /** Called once per client for a response carrying Deprecation or Sunset. */
  warn?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** Aborts every request of this client (Ctrl-C). */
  signal?: AbortSignal;
}

const MAX_RETRY_AFTER_SECONDS = 60;

export class ApiClient {
  readonly baseUrl: string;
  private warned = false;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(private readonly opts: ClientOptions) {
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

  /** Sends a request, retrying per CLI.md, and parses a JSON response (undefined for an empty body). */
  async json<T = unknown>(spec: RequestSpec): Promise<ApiResponse<T>> {
    const res = await this.send(spec);
    const text = await res.body.text();
    if (text === '') return { status: res.status, headers: res.headers, data: undefined as T };
    try {
      return { status: res.status, headers: res.headers, data: JSON.parse(text) as T };
    } catch {
      throw new ApiError({ status: res.status, message: `the service answered ${res.status} with a body that is not JSON`, requestId: res.headers[REQUEST_ID_HEADER] });
    }
  }

  /** Sends a request, retrying per CLI.md, and returns the open body for the caller to stream. */
  async send(spec: RequestSpec): Promise<StreamResponse> {
    const retriableWrite = spec.method === 'GET' || spec.idempotencyKey !== undefined;
    for (let attempt = 1; ; attempt++) {
      const canRetry = attempt <= (spec.maxRetries ?? this.opts.maxRetries);
      let res: StreamResponse;
      try {
        res = await this.once(spec, attempt);
      } catch (e) {
        if (e instanceof NetworkError && canRetry && retriableWrite && !(spec.signal ?? this.opts.signal)?.aborted) {
          await this.backoff(attempt, e.message);
          continue;
        }
        throw e;
      }
      if (res.status < 400) return res;
      const err = await toApiError(res);
      if (err.type === 'rate_limit_reached_error' || (err.status === 429 && err.type !== 'exceeded_current_quota_error' && !err.malformed)) {
        const wait = err.retryAfterSeconds;
        if (wait !== undefined && wait > MAX_RETRY_AFTER_SECONDS) throw err;
        if (!canRetry) throw err;
        if (wait !== undefined) {
          // Never shorter than asked; jitter adds up to 10 %.
          const ms = wait * 1000 * (1 + this.random() * 0.1);
          this.log(`retry in ${Math.round(ms)}ms (Retry-After ${wait}s)`);
          await this.sleep(ms);
        } else {
          await this.backoff(attempt, 'rate limited');
        }
        continue;
      }
      if (err.status >= 500 && canRetry && retriableWrite) {
        await this.backoff(attempt, `status ${err.status}`);
        continue;
      }
      throw err;
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
    if (credential) headers.authorization = `Bearer ${credential}`;
    if (spec.idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = spec.idempotencyKey;
    let body: Buffer | Readable | undefined;
    if (spec.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = Buffer.from(JSON.stringify(spec.json));
    } else if (spec.body) {
      headers['content-type'] = spec.body.contentType;
      if (spec.body.length !== undefined) headers['content-length'] = String(spec.body.length);
      body = spec.body.open();
    }
    const timeout = spec.timeoutMs ?? this.opts.timeoutMs;
    const started = this.now();
    this.log(`> ${spec.method} ${url} attempt=${attempt}${spec.idempotencyKey ? ` idempotency-key=${spec.idempotencyKey}` : ''}`);
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: spec.method,
        headers,
        body,
        signal: spec.signal ?? this.opts.signal,
        headersTimeout: timeout || undefined,
        bodyTimeout: timeout === 0 ? 0 : timeout,
      });
    } catch (e) {
      const reason = describeNetworkError(e);
      this.log(`< network error after ${this.now() - started}ms: ${reason}`);
      throw new NetworkError(`cannot reach ${this.baseUrl}: ${reason}`, e);
    }
    const resHeaders = flatHeaders(res.headers);
    this.log(`< ${res.statusCode} ${spec.method} ${spec.path} ${this.now() - started}ms request_id=${resHeaders[REQUEST_ID_HEADER] ?? '-'}`);
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
    this.opts.debug?.(`debug: ${line}`);
  }
}

async function toApiError(res: StreamResponse): Promise<ApiError> {
  const requestId = res.headers[REQUEST_ID_HEADER];
  const retryAfter = res.headers['retry-after'];
  const retryAfterSeconds = retryAfter !== undefined && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
  let text = '';
  try {
    text = await res.body.text();
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
    retryAfterSeconds,
  });
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function describeNetworkError(e: unknown): string {
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT' || err.code === 'UND_ERR_CONNECT_TIMEOUT') return 'timed out';
  if (err.name === 'AbortError') return 'aborted';
  return err.cause?.code ?? err.code ?? err.message ?? 'network error';
}
