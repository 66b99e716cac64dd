/**
 * `svc sessions rerun`, carried out for one plan: the attempt's session found (by its metadata) or created (with the
 * attempt's Idempotency-Key), then the turns it does not hold yet sent one by one, each once the previous settled.
 * Run twice, it finds the same session and the messages it holds, so nothing is created or sent twice.
 */
import type { ApiClient } from '../../api/client';
import { sessions } from '../../api/sessions';
import type { Session } from '../../wire/resources';
import { wholeHistory } from '../history';
import { ATTEMPT, RERUN_OF, userTurns, type RerunPlan } from './plan';

/** How a turn settled: `undefined` when idle and clean, else the line that says what holds it (and its exit code). */
export type Settle = (sessionId: string) => Promise<{ code: number; line: string } | undefined>;

export interface RerunDone {
  session_id: string;
  attempt: number;
  /** The session was made by this run (false: an earlier run of the same rerun made it). */
  created: boolean;
  /** Messages this run sent. */
  sent: number;
  /** Turns the new session holds now, of those planned. */
  turns: string;
  /** Why the replay stopped before the last turn: the turn before settled failed, interrupted or waiting on a human. */
  stopped?: string;
  stopped_code?: number;
}

const attemptKey = (root: string, attempt: number | string) => `${root}#${attempt}`;

/**
 * Every existing attempt of the given chains, by `root#attempt`: the sessions created since `since` whose metadata
 * names one of the roots (a lookup by metadata, as the spec asks before creating again after a replay window).
 */
export async function existingAttempts(c: ApiClient, roots: ReadonlySet<string>, since: string | undefined): Promise<Map<string, Session>> {
  const found = new Map<string, Session>();
  const query = { include_archived: true, ...(since ? { created_at_gte: since } : {}) };
  for await (const s of sessions.list(c, query, { all: true, pageSize: 1000 })) {
    const meta = (s.metadata ?? {}) as Record<string, unknown>;
    const root = meta[RERUN_OF];
    if (typeof root === 'string' && roots.has(root)) {
      const k = attemptKey(root, String(meta[ATTEMPT]));
      // Two sessions for one attempt (made by hand): the oldest stands.
      if (!found.has(k)) found.set(k, s);
    }
  }
  return found;
}

export const existingFor = (found: Map<string, Session>, p: RerunPlan): Session | undefined => found.get(attemptKey(p.root, p.attempt));

export async function rerunOne(c: ApiClient, p: RerunPlan, existing: Session | undefined, settle: Settle): Promise<RerunDone> {
  const s = existing ?? (await sessions.create(c, p.body, p.createKey));
  const id = String(s.id);
  // What the session holds already: the messages in its history and those still queued.
  let held = 0;
  if (existing) {
    const [history, pending] = await Promise.all([wholeHistory(c, id), sessions.pending(c, id)]);
    held = userTurns(history).length + (pending.items ?? []).reduce((n, x) => n + (Array.isArray(x.events) ? x.events.length : 0), 0);
  }
  const done: RerunDone = { session_id: id, attempt: p.attempt, created: !existing, sent: 0, turns: '' };
  for (let i = held; i < p.turns.length; i++) {
    if (i > 0) {
      const stop = await settle(id);
      if (stop) {
        done.stopped = stop.line;
        done.stopped_code = stop.code;
        break;
      }
    }
    await sessions.sendEvents(c, id, { type: 'next_turn', events: [p.turns[i]] }, p.turnKeys[i]);
    done.sent++;
  }
  done.turns = `${Math.min(p.turns.length, held + done.sent)}/${p.turns.length}`;
  return done;
}
