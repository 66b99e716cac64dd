/** Exponential back-off with jitter: between half and all of min(cap, base·2^(attempt-1)), so clients do not retry in step. */
export function backoffMs(attempt: number, random: () => number, baseMs = 250, capMs = 8000): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The longest wait svc takes because a peer asked (Retry-After): where the API client already gives up. */
export const PEER_WAIT_CAP_MS = 60_000;

/**
 * A wait a peer asked for (`Retry-After` of the service or of a webhook receiver), clamped: never under the back-off
 * svc would take anyway, never over the cap, and the back-off alone when the peer asked nothing readable.
 */
export function peerWaitMs(askedMs: number | undefined, backoff: number, capMs = PEER_WAIT_CAP_MS): number {
  const floor = Math.min(backoff, capMs);
  if (askedMs === undefined || !Number.isFinite(askedMs)) return floor;
  return Math.min(capMs, Math.max(floor, askedMs));
}
