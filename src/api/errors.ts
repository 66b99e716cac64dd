import type { ErrorObject } from '../wire/errors';

/** The service answered with an error status. `type` is undefined when the body had another shape. */
export class ApiError extends Error {
  readonly status: number;
  readonly type?: string;
  readonly param?: string;
  readonly requestId?: string;
  /** The body was not the spec's error object (an infrastructure failure). */
  readonly malformed: boolean;
  readonly retryAfterSeconds?: number;

  constructor(init: { status: number; error?: ErrorObject; message?: string; requestId?: string; retryAfterSeconds?: number }) {
    const message = init.error?.message ?? init.message ?? `HTTP ${init.status}`;
    super(message);
    this.name = 'ApiError';
    this.status = init.status;
    this.type = init.error?.type;
    this.param = init.error?.param;
    this.requestId = init.error?.request_id ?? init.requestId;
    this.malformed = !init.error;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  toErrorObject(): ErrorObject {
    const o: ErrorObject = { type: this.type ?? 'unknown_error', message: this.message };
    if (this.param !== undefined) o.param = this.param;
    if (this.requestId !== undefined) o.request_id = this.requestId;
    return o;
  }
}

/** No response: connection refused, reset, DNS, or the per-request timeout. */
export class NetworkError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'NetworkError';
  }
}
