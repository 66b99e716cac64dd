import type { ApiClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { Session } from '../../wire/resources';
import { sessions } from '../../api/sessions';
import type { Ctx } from '../../runtime/context';
import type { BulkAction, BulkTarget } from '../../bulk/execute';
import { pollSession } from './poll';

/** The session as the selection read it, else read now. */
const current = async (c: ApiClient, t: BulkTarget): Promise<Session> => t.row ?? sessions.get(c, t.id);

/** Interrupt, wait until stopped, archive: the spec's order for a running session. */
async function stopThenArchive(ctx: Ctx, c: ApiClient, s: Session): Promise<void> {
  const id = String(s.id);
  if (!s.stopping) await sessions.interrupt(c, id);
  await pollSession(ctx, c, id, (x) => !x.stopping && x.status !== 'running');
  await sessions.archive(c, id);
}

/** The four session verbs that act on many, as the bulk executor runs them. */
export function sessionActions(ctx: Ctx): Record<'archive' | 'delete' | 'interrupt' | 'continue', BulkAction> {
  return {
    archive: {
      name: 'archive',
      past: 'archived',
      noun: 'session',
      ignorableNotFound: true,
      async apply(c, t) {
        const s = await current(c, t);
        if (s.archived_at) return { unchanged: true };
        if (s.status === 'running' || s.stopping) {
          await stopThenArchive(ctx, c, s);
          return {};
        }
        try {
          await sessions.archive(c, t.id);
        } catch (e) {
          // The listed row was idle but the session has started a turn since: stop it first, as for a running one.
          if (!(t.row && e instanceof ApiError && e.status === 400 && e.type === 'failed_precondition_error')) throw e;
          await stopThenArchive(ctx, c, await sessions.get(c, t.id));
        }
        return {};
      },
    },
    delete: {
      name: 'delete',
      past: 'deleted',
      noun: 'session',
      ignorableNotFound: true,
      async apply(c, t) {
        await sessions.delete(c, t.id);
        return {};
      },
    },
    interrupt: {
      name: 'interrupt',
      past: 'interrupted',
      noun: 'session',
      async apply(c, t) {
        const s = await current(c, t);
        // Interrupting an interrupted session does not advance its epoch: it is already done.
        if (s.interrupted && !s.stopping) return { unchanged: true, extra: { control_epoch: s.control_epoch } };
        // The epoch read in this pass: a session that moved on since answers 409 and is reported, not retried.
        const expected = typeof s.control_epoch === 'string' ? s.control_epoch : undefined;
        const { control_epoch } = (await sessions.interrupt(c, t.id, expected)) ?? {};
        return { extra: { control_epoch } };
      },
    },
    continue: {
      name: 'continue',
      past: 'continued',
      noun: 'session',
      async apply(c, t) {
        const s = await current(c, t);
        if (!s.interrupted && !s.continue_pending) return { unchanged: true, extra: { control_epoch: s.control_epoch } };
        // Printed exactly as the service returned it: the completed start moves the session to a later epoch.
        const { control_epoch } = await sessions.continue(c, t.id);
        return { extra: { control_epoch } };
      },
    },
  };
}
