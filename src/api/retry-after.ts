/**
 * `Retry-After` as seconds or an HTTP date (RFC 9110 §10.2.3), in ms from `now`; undefined when absent or
 * unreadable. What a wait may be is decided by `peerWaitMs` (backoff.ts), not here.
 */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // A date names a day: a bare number with other characters ("1.5", "-3") is not one.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
