import { createHash, createHmac } from 'node:crypto';

/** The header a receiver verifies: `t=UNIX,v1=HEX`, as Stripe signs its webhooks. */
export const SIGNATURE_HEADER = 'svc-signature';
export const DELIVERY_ID_HEADER = 'svc-delivery-id';

/**
 * `t=UNIX,v1=HEX` where HEX is the HMAC-SHA256, keyed with the secret's UTF-8 bytes, of `${t}.${body}`.
 * Signed again at each attempt: the time is part of what a receiver checks.
 */
export function signature(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/**
 * The same ID for the same event of the same session, in this run and after a restart, so a receiver can drop a
 * delivery it already took (delivery is at least once).
 */
export function deliveryId(sessionId: string, eventId: string): string {
  return 'dlv_' + createHash('sha256').update(sessionId).update('\0').update(eventId).digest('hex').slice(0, 32);
}
