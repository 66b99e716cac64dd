/**
 * Time to first token, one definition for every view (docs/decisions/words.md): from a model request's
 * `agent.model_started` to its first `agent.delta`, per thread. Deltas never reach history and carry no time of
 * their own, so the first fragment is read where the service marks it, in the stream and in history alike: the
 * `agent.thinking_started` / `agent.message_started` it produces at that fragment. Both ends are the service's
 * `processed_at`, never the time a view received them: a view attached mid-request shows the request's own figure.
 */

/** The `processed_at` (ms) of each thread's model request still waiting for its first fragment ('' is the session's own). */
export type ModelStarts = Readonly<Record<string, number>>;

/** The members of an event the definition reads. */
export interface TimedEvent {
  type: string;
  processed_at?: string;
  session_thread_id?: string;
}

/** The waits after one more event, and the time to first token when this event ends one; undefined when it does not concern them. */
export function firstToken(starts: ModelStarts, e: TimedEvent): { starts: ModelStarts; ttftMs?: number } | undefined {
  const key = e.session_thread_id ?? '';
  const at = Date.parse(e.processed_at ?? '');
  const { [key]: started, ...rest } = starts;
  if (e.type === 'agent.model_started') return { starts: Number.isFinite(at) ? { ...rest, [key]: at } : rest };
  if (e.type !== 'agent.thinking_started' && e.type !== 'agent.message_started') return undefined;
  if (started === undefined) return undefined;
  return { starts: rest, ttftMs: Number.isFinite(at) ? Math.max(0, at - started) : undefined };
}
