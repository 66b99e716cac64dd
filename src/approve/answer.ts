/**
 * Answering one awaited confirmation, and telling "answered here" from "answered elsewhere" (docs/decisions/approve.md).
 * The service keeps the first valid reply for a call: a later one is a 200 with no event written (or a 409 on a service
 * that refuses it), which is another approver or a human having answered first, not an error.
 */
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { Obj } from '../api/resources';
import { sessions } from '../api/sessions';
import { answeredCall } from '../listen/events';
import { canonicalEvent } from '../wire/shapes';

export type Sent = 'answered' | 'elsewhere';

/** Where a call stands, read from the service: awaited now, answered already (by anyone), or neither yet. */
export type Standing = 'awaited' | 'answered' | 'unseen';

/** How much of a session's newest history is searched for a call's answer. */
const ANSWER_PAGE = 1000;

/** Whether the session lists the call among those it awaits (`stop_reason.event_ids`). */
export function awaits(s: Obj, callId: string): boolean {
  const ids = (s.stop_reason as { event_ids?: unknown } | null | undefined)?.event_ids;
  return Array.isArray(ids) && ids.map(String).includes(callId);
}

/**
 * Where the call stands: awaited (the session lists it), answered (history holds a reply or a result for it), or
 * unseen: the call is in history but the session does not await it yet (the moment between the two).
 */
export async function standing(client: ApiClient, session: Obj, callId: string, signal?: AbortSignal): Promise<Standing> {
  if (awaits(session, callId)) return 'awaited';
  const page = await sessions.historyPage(client, String(session.id), { page_size: ANSWER_PAGE, order: 'desc' }, undefined, signal);
  return page.items.some((e) => answeredCall(canonicalEvent(e)) === callId) ? 'answered' : 'unseen';
}

/**
 * Sends `user.tool_confirmation`. 'answered': this reply was written (the 202's `event_id`); 'elsewhere': the call
 * had its answer already (no event written, a 409, or a 400 for a call the session no longer awaits and whose answer
 * history holds). Anything else throws: the caller tries again, and a deny stays a deny.
 */
export async function confirm(client: ApiClient, sessionId: string, callId: string, result: 'allow' | 'deny', message?: string): Promise<Sent> {
  // docs/service.md: {event_id, result, deny_message?}, sent without session_thread_id.
  const data = { event_id: callId, result, ...(result === 'deny' && message !== undefined ? { deny_message: message } : {}) };
  try {
    const r = await sessions.sendEvents(client, sessionId, { events: [{ type: 'user.tool_confirmation', data }] });
    return typeof r?.event_id === 'string' ? 'answered' : 'elsewhere';
  } catch (e) {
    if (e instanceof ApiError && e.status === 409) return 'elsewhere';
    if (e instanceof ApiError && e.status === 400 && String(e.param ?? '').includes('event_id')) {
      const s = await sessions.get(client, sessionId);
      if ((await standing(client, s, callId)) === 'answered') return 'elsewhere';
    }
    throw e;
  }
}
