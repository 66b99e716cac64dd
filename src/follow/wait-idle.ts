import type { ApiClient } from '../api/client';
import type { Session } from '../wire/resources';
import { sessions } from '../api/sessions';
import { follow } from '../api/stream/resumable';
import { typeOf } from '../api/stream/types';
import type { Ctx } from '../runtime/context';
import { waitSignal } from './deadline';
import { decides, outcomeOf, outcomeOfStatus, TurnErrors } from './outcome';
import { finishTurn } from './finish';
import { notice } from './notice';

/**
 * Waits until the session has settled and returns it when idle; else exit 11 (failed, terminated), 12 (interrupted:
 * at once, as nothing but a Continue moves it on), 13 (waiting on a human), 124 at the deadline.
 * A settled session answers at once. Otherwise the live stream is opened first and the session read again once it is
 * live, so a turn that ends between the first read and the subscription is not missed.
 */
export async function waitIdle(ctx: Ctx, client: ApiClient, sessionId: string, timeoutMs: number | undefined): Promise<Session> {
  const first = await sessions.get(client, sessionId);
  const now = outcomeOf(first);
  if (now.settled) {
    await finishTurn(client, new TurnErrors(), now);
    return first;
  }
  const w = waitSignal(ctx, timeoutMs, `session ${sessionId} is still running`);
  const errors = new TurnErrors();
  let settled: Session | undefined;
  const read = async () => {
    const s = await sessions.get(client, sessionId);
    return outcomeOf(s).settled ? s : undefined;
  };
  try {
    for await (const it of follow({ client, sessionId, cursor: 'now', signal: w.signal, sleep: ctx.sleep })) {
      if (it.kind === 'connection') {
        await notice(ctx, it.state);
        if (it.state.kind === 'live' && (settled = await read())) break;
      } else if (it.kind === 'event' && decides(typeOf(it))) {
        // Only statuses and errors decide: other events are never parsed.
        errors.see(it.event);
        // An idle status is confirmed by a read: queued input may already have started the next turn.
        if (outcomeOfStatus(sessionId, it.event) && (settled = await read())) break;
      }
    }
  } finally {
    w.dispose();
  }
  if (!settled) throw w.failure() ?? new Error('the event stream ended before the session settled');
  await finishTurn(client, errors, outcomeOf(settled));
  return settled;
}
