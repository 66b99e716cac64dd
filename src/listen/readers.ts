import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { eventPagesAfter, type Where } from '../api/stream/backfill';
import { Delivered } from '../api/stream/dedupe';
import { followBatches } from '../api/stream/resumable';
import type { ConnectionState } from '../api/stream/types';
import { sessions } from '../api/sessions';
import { CURSOR_NOW, type SessionEvent } from '../wire/events';
import type { Intake } from './intake';

export interface ReaderDeps {
  client: ApiClient;
  sleep: (ms: number) => Promise<void>;
  notice: (line: string) => void;
}

/** The longest wait between two attempts to reopen a stream: a listener keeps reconnecting until stopped. */
export const STREAM_BACKOFF_CAP_MS = 30_000;

/**
 * Follows one session's stream into its intake until `signal` ends it, with the tail's guarantees (reconnects,
 * error frames, expired cursors: follow.ts). From the start of a new session it is history then live; after an
 * anchor it is the spec's recipe for a lost position: a `cursor=now` stream, the history after the anchor once the
 * stream is live, then the live events, those the history already gave skipped.
 */
export async function streamInto(intake: Intake, deps: ReaderDeps, signal: AbortSignal): Promise<void> {
  const from = intake.read;
  const where: Where = { client: deps.client, sessionId: intake.sessionId, signal };
  let backfill = from.kind === 'after' ? from : undefined;
  /** What the backfill gave, in bounded memory: the first live events may repeat its end. */
  let seam: Delivered | undefined;
  /** History is read until the stream is live: from the start, a backfill, or a recovery from an expired cursor. */
  let replaying = true;
  for await (const batch of followBatches({
    client: deps.client,
    sessionId: intake.sessionId,
    cursor: from.kind === 'start' ? undefined : CURSOR_NOW,
    signal,
    sleep: deps.sleep,
    maxRetries: Infinity,
    backoffCapMs: STREAM_BACKOFF_CAP_MS,
  })) {
    for (const it of batch) {
      if (it.kind === 'connection') {
        if (it.state.kind === 'live') {
          if (backfill) {
            seam = new Delivered();
            for await (const events of eventPagesAfter(where, backfill)) {
              for (const e of events) {
                const it = { kind: 'event' as const, event: e, raw: JSON.stringify(e) };
                seam.accept(it);
                seam.remember(e.id);
                if (!(await intake.take(it, signal, true))) return;
              }
            }
            seam.seal();
            backfill = undefined;
          }
          if (replaying && !(await intake.caughtUp(signal))) return;
          replaying = false;
        } else {
          if (it.state.kind === 'backfilling') replaying = true;
          report(deps, intake.sessionId, it.state);
        }
        continue;
      }
      if (it.kind !== 'event') continue;
      if (seam) {
        // Repeats are a prefix of the live events: the first new one ends the seam.
        if (!seam.accept(it)) continue;
        seam = undefined;
      }
      if (!(await intake.take(it, signal, replaying))) return;
    }
  }
}

/** One poll of a session without a stream: the history after where reading stands, a replay up to now. */
export async function pollInto(intake: Intake, deps: ReaderDeps, signal: AbortSignal): Promise<void> {
  for await (const events of eventPagesAfter({ client: deps.client, sessionId: intake.sessionId, signal }, intake.read))
    for (const e of events) if (!(await intake.take({ event: e, raw: JSON.stringify(e) }, signal, true))) return;
  await intake.caughtUp(signal);
}

/** Most awaited calls of a waiting session are among its newest events: one page is read, no more. */
const AWAITED_PAGE = 1000;

/** The events a waiting session awaits replies to (`stop_reason.event_ids`), as far as its newest page holds them. */
export async function awaitedEvents(client: ApiClient, sessionId: string, eventIds: string[], signal: AbortSignal): Promise<SessionEvent[]> {
  const page = await sessions.historyPage(client, sessionId, { page_size: AWAITED_PAGE, order: 'desc' }, undefined, signal);
  const wanted = new Set(eventIds);
  return page.items.filter((e) => wanted.has(e.id)).reverse();
}

/** Reconnects and backfills are never silent: one stderr line each, naming the session. */
function report(deps: ReaderDeps, sessionId: string, s: ConnectionState): void {
  if (s.kind === 'reconnecting') deps.notice(`session ${sessionId}: reconnecting (attempt ${s.attempt}): ${s.reason}`);
  else if (s.kind === 'backfilling') deps.notice(`session ${sessionId}: the stream cursor expired: backfilling missed events from history`);
}

/** The session is gone (deleted, or never existed): nothing more to read. */
export const isGone = (e: unknown): boolean => e instanceof ApiError && e.status === 404;

/** The credential itself was refused: every session would fail alike, so the listener stops. */
export const isFatal = (e: unknown): boolean => e instanceof ApiError && (e.status === 401 || e.status === 403);
