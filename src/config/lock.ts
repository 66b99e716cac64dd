import { ConfigError } from '../runtime/errors';
import { withLock } from '../fs/lock';

// Assumption: a holder only reads and writes one small file, so a lock older than this is stale whoever holds it (its
// pid may have been reused).
const STALE_MS = 10_000;
const WAIT_MS = 30_000;

/**
 * Runs `work` holding the config's lock (`FILE.lock` beside it, fs/lock.ts), so concurrent read-modify-writes of the
 * config never lose one another's changes. The wait ends at a deadline or when `signal` aborts.
 */
export function withFileLock<T>(file: string, work: () => T, signal?: AbortSignal): Promise<T> {
  const lock = `${file}.lock`;
  return withLock(
    lock,
    {
      kind: { noun: 'config lock', holder: 'svc', staleMs: STALE_MS, refusal: ConfigError },
      waitMs: WAIT_MS,
      maxPauseMs: 50,
      timedOut: () => new ConfigError(`config file ${file} stayed locked by another svc for ${WAIT_MS / 1000} s; if none is running, remove ${lock}`),
      signal,
    },
    work,
  );
}
