import { networkCode, networkReason } from '../api/errors';
import { discard, request } from '../api/http';
import { viaProxy, type Network } from '../api/network';
import { retryAfterMs } from '../api/retry-after';
import { addSecret, MASK } from '../text/redact';
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
  /** The proxy variables and extra certificates in force (docs/decisions/network.md). */
  network?: Network;
}

/** Statuses worth another attempt besides 5xx: a receiver's timeout and its throttling. */
const RETRIED = new Set([408, 429]);

/** `--forward-to URL`: a signed POST per event. 2xx accepts it; 408, 429, 5xx and no answer are retried; any other status drops it. */
export function forwardTo(o: ForwardOptions): Destination {
  const timeout = o.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const auth = basicAuth(o.url);
  const shown = withoutUserinfo(o.url);
  const via = viaProxy(o.url, o.network);
  return {
    name: shown,
    concurrency: o.concurrency,
    async attempt(d: Delivery, attempt: number, signal: AbortSignal): Promise<Outcome> {
      const t = Math.floor(o.now() / 1000);
      o.debug?.(`> POST ${shown} ${DELIVERY_ID_HEADER}=${d.id} type=${d.type} attempt=${attempt}${via}`);
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
          network: o.network,
        });
        status = res.statusCode;
        const h = res.headers['retry-after'];
        retryAfter = Array.isArray(h) ? h[0] : h;
        // The answer's body is not read: drained so the connection is reused.
        discard(res.body);
      } catch (e) {
        const reason = failure(e, timeout);
        o.debug?.(`< no answer from ${shown} after ${o.now() - started}ms: ${reason}`);
        return { kind: 'retry', reason: `no answer: ${reason}` };
      }
      o.debug?.(`< ${status} POST ${shown} ${o.now() - started}ms`);
      if (status >= 200 && status < 300) return { kind: 'accepted', status };
      if (status >= 500 || RETRIED.has(status)) return { kind: 'retry', reason: `status ${status}`, status, afterMs: retryAfterMs(retryAfter, o.now()) };
      if (status >= 300 && status < 400) return { kind: 'drop', reason: `status ${status}: redirects are not followed, fix --forward-to`, status };
      return { kind: 'drop', reason: `status ${status}`, status };
    },
  };
}

/** Why an attempt got no answer, in a few words: a timeout (the HTTP layer's, or the attempt's own signal) says how long. */
function failure(e: unknown, timeoutMs: number): string {
  const why = networkReason(e);
  if (why === 'timed out' || (e as Error)?.name === 'TimeoutError')
    return `timed out after ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)}s` : `${timeoutMs}ms`}`;
  const code = networkCode(e);
  return why ?? (typeof code === 'string' ? code : undefined) ?? (e as Error)?.message ?? 'network error';
}

/** `https://user:password@host/…`: sent as Basic credentials (a URL's own are not sent by the HTTP client), the password a secret. */
function basicAuth(url: string): Record<string, string> {
  const u = new URL(url);
  if (!u.username && !u.password) return {};
  const password = decodeURIComponent(u.password);
  const user = decodeURIComponent(u.username);
  // A user without a password is the credential itself.
  addSecret(password || user);
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

/**
 * The URL as shown (the listening line, notices, --debug): its userinfo masked whole, as a user alone is as often
 * a token (`https://TOKEN@host/`) as a name.
 */
export function withoutUserinfo(url: string): string {
  const u = new URL(url);
  if (!u.username && !u.password) return url;
  return `${u.protocol}//${MASK}@${u.host}${u.pathname}${u.search}${u.hash}`;
}

/** The one Retry-After parser (src/api/retry-after.ts), exported here too for listen's callers. */
export { retryAfterMs } from '../api/retry-after';
