/** One event on its way to the receiver. */
export interface Delivery {
  /** `Svc-Delivery-Id`: the same for the same event of the same session, across retries and restarts. */
  id: string;
  sessionId: string;
  eventId: string;
  type: string;
  /** `{"session_id","event"}`, the same bytes at every attempt. */
  body: string;
}

/** How one attempt ended. `afterMs`: the receiver asked for this wait (Retry-After). */
export type Outcome =
  | { kind: 'accepted'; status?: number }
  | { kind: 'retry'; reason: string; status?: number; afterMs?: number }
  | { kind: 'drop'; reason: string; status?: number }
  /** Not a failure: the destination looks at it again after `afterMs` (an approver waiting on a human); it stays unsettled. */
  | { kind: 'later'; afterMs: number };

/** Where deliveries go: `--forward-to URL` or `--exec CMD`. */
export interface Destination {
  /** The URL or the command, for messages. */
  readonly name: string;
  /** Attempts in flight at once (each session's own deliveries go one at a time, in order). */
  readonly concurrency: number;
  /** One attempt; never throws for the receiver's failures (they are outcomes). `signal` abandons it. */
  attempt(d: Delivery, attempt: number, signal: AbortSignal): Promise<Outcome>;
  /** Ends what attempts left behind, once the listener stops (processes a command started). */
  close?(): Promise<void>;
}

/** The longest an attempt may take before it counts as failed (a receiver that never answers). */
export const ATTEMPT_TIMEOUT_MS = 30_000;
