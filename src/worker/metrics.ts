/**
 * What the worker reports as it works, for `--metrics-addr` (worker/status.ts). Without that flag the worker
 * reports to {@link noMetrics}, so the metrics code is never loaded.
 */
export type PollOutcome = 'claimed' | 'empty' | 'error';
export type ToolOutcome = 'ok' | 'error' | 'cancelled';
/** How a claimed row ended: see worker/row.ts. */
export type RowEnd = 'completed' | 'abandoned' | 'stopped' | 'handed_back' | 'failed';

export interface WorkerMetrics {
  /** A poll is sent (readiness: a long poll in flight is not yet a failure). */
  pollStarted(): void;
  /** A poll answered (or failed: `error` says why, for /readyz). */
  polled(outcome: PollOutcome, error?: string): void;
  rowClaimed(): void;
  rowEnded(end: RowEnd): void;
  /** A held lease was lost (412, a revoked token, no heartbeat for a whole lease, a failed ack). */
  leaseLost(): void;
  toolCall(tool: string, outcome: ToolOutcome, seconds: number): void;
  /** `--on-work` CMD exited: its exit code (or the signal that ended it) and how long it ran. */
  commandExited(exit: { exit_code?: number; signal?: string; error?: string }, seconds: number): void;
  /** SIGTERM: no more polls; the rows in flight finish or are handed back. */
  draining(): void;
}

export const noMetrics: WorkerMetrics = {
  pollStarted: () => undefined,
  polled: () => undefined,
  rowClaimed: () => undefined,
  rowEnded: () => undefined,
  leaseLost: () => undefined,
  toolCall: () => undefined,
  commandExited: () => undefined,
  draining: () => undefined,
};
