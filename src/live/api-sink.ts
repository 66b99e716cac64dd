/** The live view's actions done through the API layer; outcomes go to the store as notices and session reads. */
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { sessions } from '../api/sessions';
import { sleep } from '../async/sleep';
import type { InputMode } from '../wire/events';
import { compareEpochs } from './epoch';
import type { ActionSink } from './sink';
import type { LiveStore } from './store';

/** How often an action's outcome is read back while it settles. */
export const POLL_MS = 100;
/** How long a read-back waits for the service to settle before showing what it has. */
const SETTLE_MS = 15_000;
/** The least time between two reads of the session the stream asks for (a burst of events costs one read). */
const REFRESH_GAP_MS = 250;
/** How often the session is read while it is stopping, interrupted or continue-pending (see `watch`). */
const WATCH_MS = 2_000;

type Session = Record<string, unknown>;

export interface ApiSink extends ActionSink {
  /** Reads the session and its pending inputs again (coalesced: one read in flight at a time). */
  refresh(): void;
}

/** How long a message or a continue waits for the stream to be live, so the reply's deltas are not missed. */
const LIVE_WAIT_MS = 2_000;

/**
 * `client` settles once the view has drawn its first frame (open.ts); every action waits for it. `streaming` settles
 * when the stream is first live: deltas are never in history, so what starts a reply (send, continue) waits for it too.
 */
export function apiSink(o: {
  client: Promise<ApiClient>;
  streaming: Promise<void>;
  sessionId: string;
  store: LiveStore;
  signal: AbortSignal;
  now: () => number;
  onQuit: () => void;
  onAbort: () => void;
}): ApiSink {
  const { sessionId: sid, store, signal } = o;
  const streamLive = () => Promise.race([o.streaming, sleep(LIVE_WAIT_MS, signal)]);
  const notice = (text: string, level: 'info' | 'error' = 'info') => store.dispatch({ type: 'notice', text, level });
  const why = (e: unknown) => `${(e as Error).message}${e instanceof ApiError && e.type ? ` (${e.type})` : ''}`;
  const failed = (what: string, e: unknown) => {
    if (!signal.aborted) notice(`${what} failed: ${why(e)}`, 'error');
  };

  const read = async (): Promise<Session> => {
    const s = await sessions.get(await o.client, sid);
    store.dispatch({ type: 'session', session: s });
    return s;
  };

  /** Reads the session until `done` holds (or the settle time passes), showing each read. */
  const settle = async (done: (s: Session) => boolean): Promise<Session> => {
    const until = o.now() + SETTLE_MS;
    for (;;) {
      const s = await read();
      if (done(s) || o.now() > until || signal.aborted) return s;
      await sleep(POLL_MS, signal);
    }
  };

  let reading = false;
  let again = false;
  let lastRead = -Infinity;
  let watching: ReturnType<typeof setTimeout> | undefined;
  signal.addEventListener('abort', () => clearTimeout(watching), { once: true });
  /**
   * Reads the session and its pending inputs: coalesced (one read in flight, one more after it when asked meanwhile)
   * and throttled (REFRESH_GAP_MS between reads). While the session is stopping, interrupted or continue-pending,
   * it reads again every WATCH_MS.
   */
  const refresh = (): void => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    void (async () => {
      try {
        do {
          again = false;
          // The first read goes at once: a view that ends soon still shows the session's state.
          const gap = lastRead + REFRESH_GAP_MS - o.now();
          if (gap > 0) await sleep(gap, signal);
          if (signal.aborted) return;
          lastRead = o.now();
          const [, pending] = await Promise.all([read(), sessions.pending(await o.client, sid)]);
          store.dispatch({ type: 'pending', count: pending.items.length });
        } while (again && !signal.aborted);
      } catch (e) {
        failed('reading the session', e);
      } finally {
        reading = false;
        watch();
      }
    })();
  };
  // Assumption: a continue that starts with no input queued emits no event, and another
  // shell's continue or interrupt may be the only change: while the session is in such a state, reads reveal it.
  const watch = (): void => {
    const s = store.getState();
    if (watching || signal.aborted || !(s.stopping || s.interrupted || s.continuePending)) return;
    watching = setTimeout(() => {
      watching = undefined;
      refresh();
    }, WATCH_MS);
  };

  /** The one transcript line a control action leaves: what happened and the epoch it left the session at. */
  const outcome = (text: string, level: 'info' | 'error' = 'info') => store.dispatch({ type: 'control', text, level });
  const epochNow = () => store.getState().epoch ?? 'unknown';
  /** The epoch a read gave, as the service wrote it. */
  const epochOf = (x: Session) => (typeof x.control_epoch === 'string' ? x.control_epoch : epochNow());
  /** What a continue did to the session, as read once its start completed (or the settle time passed). */
  const continued = (x: Session, accepted: string): string => {
    if (x.continue_pending) return `continue accepted (epoch ${accepted}); the session has not started again yet`;
    if (x.interrupted) return `continue sent (epoch ${accepted}); the session is still interrupted`;
    // With nothing queued a continue starts no turn: the session is no longer interrupted, and idle.
    if (x.status === 'idle') return `continued (epoch ${epochOf(x)}): no longer interrupted; nothing was queued, so the session stays idle (m sends a message)`;
    return `continued (epoch ${epochOf(x)}): the session is ${x.status} again`;
  };
  /** A refused action: the session is read again, so the line and the header show the same epoch. */
  const refused = async (what: string, e: unknown) => {
    if (signal.aborted) return;
    await read().catch(() => undefined);
    outcome(`${what} failed: ${why(e)} (epoch ${epochNow()})`, 'error');
    refresh();
  };

  return {
    refresh,
    interrupt(knownEpoch) {
      store.dispatch({ type: 'control.start', action: 'interrupt', text: 'interrupting…' });
      void (async () => {
        try {
          const r = await sessions.interrupt(await o.client, sid, knownEpoch);
          if (r.control_epoch) store.dispatch({ type: 'epoch', epoch: r.control_epoch });
          // Neither the 202 nor the acknowledgement means completion: read the session back.
          const s = await settle((x) => !x.stopping);
          outcome(
            s.interrupted
              ? `interrupted (epoch ${epochOf(s)}): the session has stopped; c continues it`
              : `interrupt sent (epoch ${epochOf(s)}); the session is ${s.status}${s.stopping ? ', still stopping' : ''}`,
          );
          refresh();
        } catch (e) {
          await refused('interrupt', e);
        }
      })();
    },
    continue() {
      store.dispatch({ type: 'control.start', action: 'continue', text: 'continuing…' });
      void (async () => {
        try {
          await streamLive();
          const { control_epoch } = await sessions.continue(await o.client, sid);
          store.dispatch({ type: 'epoch', epoch: control_epoch });
          // Accepted is not started: poll until continue_pending clears on the returned epoch.
          const s = await settle((x) => !x.continue_pending && typeof x.control_epoch === 'string' && compareEpochs(x.control_epoch, control_epoch) >= 0);
          outcome(continued(s, control_epoch));
          refresh();
        } catch (e) {
          await refused('continue', e);
        }
      })();
    },
    send(text: string, mode: InputMode) {
      void (async () => {
        try {
          const content = text ? [{ type: 'text', text }] : [];
          await streamLive();
          await sessions.sendEvents(await o.client, sid, { type: mode, events: [{ type: 'user.message', data: { content } }] }, globalThis.crypto.randomUUID());
          notice(`message sent (${mode})`);
          refresh();
        } catch (e) {
          failed('sending the message', e);
        }
      })();
    },
    confirm(eventId, result) {
      void (async () => {
        try {
          // docs/service.md: user.tool_confirmation is {event_id, result}; sent without session_thread_id.
          await sessions.sendEvents(await o.client, sid, { events: [{ type: 'user.tool_confirmation', data: { event_id: eventId, result } }] });
          notice(`${result === 'allow' ? 'allowed' : 'denied'} ${eventId}`);
        } catch (e) {
          store.dispatch({ type: 'confirmation.answering', eventId, answering: false });
          failed(`answering ${eventId}`, e);
        }
      })();
    },
    quit: o.onQuit,
    abort: o.onAbort,
  };
}
