import { UsageError } from '../../runtime/errors';
import { isObject } from '../../wire/is-object';
import { SESSION_MODES, SESSION_SHAPING } from '../triggers';

type Doc = Record<string, any>;

/** Enums and the one certain rule on initial_events, before any request. */
export function checkTrigger(doc: Doc): void {
  if (doc.session_mode !== undefined && !(SESSION_MODES as readonly unknown[]).includes(doc.session_mode)) {
    throw new UsageError(`session_mode must be one of ${SESSION_MODES.join(', ')} (got ${JSON.stringify(doc.session_mode)})`);
  }
  if (isObject(doc.schedule) && doc.schedule.type !== 'cron') throw new UsageError(`schedule.type must be cron (got ${JSON.stringify(doc.schedule.type)})`);
  if (doc.initial_events !== undefined) {
    if (!Array.isArray(doc.initial_events)) throw new UsageError('initial_events must be a list of user.message events');
    doc.initial_events.forEach((e: unknown, i: number) => {
      if (isObject(e) && e.type === 'user.interrupt') throw new UsageError(`initial_events[${i}]: an interrupt cannot be queued on a trigger`);
    });
  }
}

/**
 * A reuse_session trigger refuses changes to the session-shaping members, so a PATCH that also
 * switches to new_session is sent as two, the switch first.
 */
export function triggerPatches(body: Doc): Doc[] {
  const shaping = SESSION_SHAPING.filter((k) => k in body);
  if (body.session_mode !== 'new_session' || shaping.length === 0) return [body];
  const { session_mode, ...rest } = body;
  return [{ session_mode }, rest];
}
