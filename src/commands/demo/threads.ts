import type { SessionEvent } from '../../wire/events';

/** Thread IDs to agent names, learnt from `session.thread_created`, for tagging child-thread lines. */
export function threadNames() {
  const names = new Map<string, string>();
  return {
    see(e: SessionEvent): void {
      const d = (e.data ?? {}) as { thread_id?: unknown; agent_name?: unknown };
      if (e.type === 'session.thread_created' && typeof d.thread_id === 'string' && typeof d.agent_name === 'string') names.set(d.thread_id, d.agent_name);
    },
    of: (id: string | undefined): string | undefined => (id === undefined ? undefined : (names.get(id) ?? id)),
  };
}
