/**
 * The causes `svc sessions explain` names, each under a stable code (the `code` of `-o json`), with what recognises
 * it documented in docs/decisions/explain.md. Adding a code is fine; renaming or removing one breaks scripts.
 */
export const CAUSE_CODES = [
  /** The last turn ended in a `session.error` (grouped by its `error_type`, listed in the spec or not). */
  'session_error',
  /** The turn stopped with its work not done: `stop_reason` refusal, retries_exhausted, budget_reached. */
  'stop_unfinished',
  /** An `always_ask` tool call awaits `user.tool_confirmation`. */
  'awaiting_confirmation',
  /** A custom tool call awaits `user.custom_tool_result`. */
  'awaiting_tool_result',
  /** Awaited events (`stop_reason.event_ids`) whose call the recent history does not show. */
  'awaiting_reply',
  /** Interrupted with input queued behind the interrupt: nothing runs until a Continue. */
  'interrupted_input_held',
  /** Interrupted, nothing queued. */
  'interrupted',
  /** The platform is rescheduling the turn. */
  'rescheduling',
  /** Self-hosted: the session's work row is queued and no worker has claimed it for a while. */
  'work_queued_no_worker',
  /** Self-hosted: the row is leased by a worker whose last heartbeat is older than the lease TTL. */
  'worker_heartbeat_stale',
  /** Running (or winding down, or a Continue starting) with nothing wrong seen. */
  'running',
  /** Finished its turn cleanly: nothing holds it. */
  'idle',
  /** Terminated by the service: it takes no input. */
  'terminated',
  /** Archived (its status reads terminated): it takes no input. */
  'archived',
  /** A state svc cannot explain: the raw facts, never a guess. */
  'unknown',
] as const;

export type CauseCode = (typeof CAUSE_CODES)[number];

/** One awaited call of a waiting session. */
export interface AwaitedCall {
  event_id: string;
  tool?: string;
  /** The call's input on one line, cut to a screen's width. */
  input?: string;
  /** When the call was made (the event's `processed_at`). */
  since?: string;
  waited_ms?: number;
  /** The thread that waits; absent for the coordinator. */
  thread_id?: string;
}

/** Why a session stands as it does: a code, a line for humans, the facts it rests on, and what moves it on. */
export interface Cause {
  code: CauseCode;
  /** One line saying why, with the facts filled in. */
  summary: string;
  /** What the cause was recognised from (error type, row, worker, ages…), as read. */
  facts: Record<string, unknown>;
  /** The spec's recovery advice, where the spec gives one. */
  advice?: string;
  /** Commands that move this session on, exact IDs filled in. */
  commands: string[];
}

/** One session explained: its derived state (as every view words it) and its causes, the first the main one. */
export interface Explained {
  id: string;
  title?: string | null;
  created_at?: string;
  state: string;
  causes: Cause[];
}

/** The key sessions are grouped by: the main cause's code and what splits it (the error type, the environment). */
export function groupKey(c: Cause): string {
  const by =
    c.code === 'session_error'
      ? c.facts.error_type
      : c.code === 'stop_unfinished'
        ? c.facts.stop_reason
        : c.code === 'work_queued_no_worker' || c.code === 'worker_heartbeat_stale'
          ? c.facts.environment_id
          : undefined;
  return by === undefined ? c.code : `${c.code}:${String(by)}`;
}
