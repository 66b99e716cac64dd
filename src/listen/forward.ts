import { networkCode, networkReason } from '../api/errors';
import { request } from '../api/http';
import { retryAfterMs } from '../api/retry-after';
import { addSecret } from '../text/redact';
import { ATTEMPT_TIMEOUT_MS, type Delivery, type Destination, type Outcome } from './destination';
import { DELIVERY_ID_HEADER, SIGNATURE_HEADER, signature } from './sign';

export interface ForwardOptions {
  url: string;
  secret: string;
  userAgent: string;
  concurrency: number;
  now: () => number;
  timeoutMs?: number;
  /** One line per attempt with `--debug` (never the signature's secret, which it does not hold). */
  debug?: (line: string) => void;
}

/** Statuses worth another attempt besides 5xx: a receiver's timeout and its throttling. */
const RETRIED = new Set([408, 429]);

/** `--forward-to URL`: a signed POST per event. 2xx accepts it; 408, 429, 5xx and no answer are retried; any other status drops it. */
export function forwardTo(o: ForwardOptions): Destination {
  const timeout = o.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const auth = basicAuth(o.url);
  return {
    name: o.url,
    concurrency: o.concurrency,
    async attempt(d: Delivery, attempt: number, signal: AbortSignal): Promise<Outcome> {
      const t = Math.floor(o.now() / 1000);
      o.debug?.(`> POST ${o.url} ${DELIVERY_ID_HEADER}=${d.id} type=${d.type} attempt=${attempt}`);
      const started = o.now();
      let status: number;
      let retryAfter: string | undefined;
      try {
        const res = await request(o.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': o.userAgent,
            [SIGNATURE_HEADER]: signature(o.secret, d.body, t),
            [DELIVERY_ID_HEADER]: d.id,
            'svc-event-type': d.type,
            'svc-delivery-attempt': String(attempt),
            ...auth,
          },
          body: d.body,
          signal: AbortSignal.any([signal, AbortSignal.timeout(timeout)]),
          headersTimeout: timeout,
          bodyTimeout: timeout,
        });
        status = res.statusCode;
        const h = res.headers['retry-after'];
        retryAfter = Array.isArray(h) ? h[0] : h;
        // The answer's body is not read: drained so the connection is reused.
        await res.body.dump();
      } catch (e) {
        const reason =
          networkReason(e) ?? networkCode(e) ?? (e instanceof Error && e.name === 'TimeoutError' ? 'timed out' : (e as Error)?.message) ?? 'network error';
        o.debug?.(`< no answer from ${o.url} after ${o.now() - started}ms: ${reason}`);
        return { kind: 'retry', reason: `no answer: ${reason}` };
      }
      o.debug?.(`< ${status} POST ${o.url} ${o.now() - started}ms`);
      if (status >= 200 && status < 300) return { kind: 'accepted', status };
      if (status >= 500 || RETRIED.has(status)) return { kind: 'retry', reason: `status ${status}`, status, afterMs: retryAfterMs(retryAfter, o.now()) };
      if (status >= 300 && status < 400) return { kind: 'drop', reason: `status ${status}: redirects are not followed, fix --forward-to`, status };
      return { kind: 'drop', reason: `status ${status}`, status };
    },
  };
}

/** `https://user:password@host/…`: sent as Basic credentials (a URL's own are not sent by the HTTP client), the password a secret. */
function basicAuth(url: string): Record<string, string> {
  const u = new URL(url);
  if (!u.username && !u.password) return {};
  const password = decodeURIComponent(u.password);
  addSecret(password);
  return { authorization: `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${password}`).toString('base64')}` };
}

/** The one Retry-After parser (src/api/retry-after.ts), exported here too for listen's callers. */
export { retryAfterMs } from '../api/retry-after';
