import { flagTable } from '../flags';
import { ApiError, NetworkError } from '../../api/errors';
import { UsageError, withNote } from '../../runtime/errors';
import { LIMITS } from '../../wire/limits';

/** `--idempotency-key` on every verb that creates (docs/behaviour.md "HTTP behaviour"); read back with idempotencyKey. */
export const idempotencyFlags = (description = 'Idempotency-Key to send (default: a fresh UUID)') =>
  flagTable({ idempotencyKey: { flags: '--idempotency-key <key>', description } });

/** The Idempotency-Key of one create intent: `--idempotency-key`, else a fresh UUID kept across retries. */
export function idempotencyKey(flags: { idempotencyKey?: unknown }): string {
  // globalThis.crypto loads node's crypto only when a key is made, not on every read command's start-up.
  const k = typeof flags.idempotencyKey === 'string' ? flags.idempotencyKey : globalThis.crypto.randomUUID();
  if (Buffer.byteLength(k) > LIMITS.idempotencyKeyBytes) throw new UsageError(`--idempotency-key is over ${LIMITS.idempotencyKeyBytes} bytes`);
  return k;
}

/**
 * A create that failed with no answer or a 5xx may still have been applied: the error line says how to check,
 * and how to replay the same intent with its key rather than create twice.
 */
export async function unknownOutcome<T>(write: Promise<T>, check: string, key: string): Promise<T> {
  try {
    return await write;
  } catch (e) {
    if (e instanceof NetworkError || (e instanceof ApiError && e.status >= 500)) {
      throw withNote(e, `it may have been applied: check with \`${check}\`, or run again with --idempotency-key ${key} to replay it instead of creating twice`);
    }
    throw e;
  }
}
