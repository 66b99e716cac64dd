/** The demo without a terminal: one readable line per event, the confirmation answered automatically, done when idle. */
import type { ApiClient } from '../../api/client';
import { sessions } from '../../api/sessions';
import { follow } from '../../api/stream/resumable';
import { describeEvent, formatItem, threadNames } from '../../live/items';
import { TurnWatch, type EndReason } from '../../follow/turn-end';

/**
 * Prints the session's events until `turns` turns have ended (idle other than awaiting a confirmation) or the session
 * was terminated; returns how the last one ended, undefined when the stream stopped first (the signal).
 */
export async function printTranscript(o: {
  client: ApiClient;
  sessionId: string;
  turns: number;
  say: (line: string) => Promise<void> | void;
  signal: AbortSignal;
}): Promise<EndReason | undefined> {
  const names = threadNames();
  const watch = new TurnWatch();
  let ended = 0;
  for await (const item of follow({ client: o.client, sessionId: o.sessionId, signal: o.signal })) {
    if (item.kind !== 'event') continue;
    const e = item.event;
    names.see(e);
    const described = describeEvent(e, 0, names.of(e.session_thread_id));
    await o.say(described ? formatItem(described) : e.type);
    if (e.type === 'agent.tool_use' && (e.data as { permission?: string } | undefined)?.permission === 'ask') {
      await o.say(`(demo) answering the confirmation automatically: allow ${e.id}`);
      await sessions.sendEvents(o.client, o.sessionId, { events: [{ type: 'user.tool_confirmation', data: { event_id: e.id, result: 'allow' } }] });
    }
    const end = watch.see(e);
    if (end === 'terminated' || end === 'archived' || (end && ++ended === o.turns)) return end;
  }
  return undefined;
}
