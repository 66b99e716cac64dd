/**
 * `svc approve serve`: the headless approver, built on listen's engine (src/listen/listen.ts). The listener follows the
 * selected sessions (streams up to its cap, polling past it, `--state` resumed after a restart) and derives a
 * `session.requires_action` for each call that waits on a human; the approver is its destination: each such event is
 * decided by the policy and answered, escalated, or denied once its time is up. A delivery is settled (and so never
 * handled again after a restart) only once the call is answered, here or elsewhere, or handed to a human.
 */
import { createHash } from 'node:crypto';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { Obj } from '../api/resources';
import { sessions } from '../api/sessions';
import { isObject } from '../wire/is-object';
import type { Delivery, Destination, Outcome } from '../listen/destination';
import { REQUIRES_ACTION } from '../listen/events';
import { listen, type Summary, type Tuning } from '../listen/listen';
import type { ListenState } from '../listen/state';
import { confirm, standing, type Sent } from './answer';
import { Facts, type Asked } from './facts';
import { decide, type Verdict } from './match';
import type { Decision, Policy } from './policy';
import type { SessionSelectors } from './selection';
import { ownsTest } from './selection';

/** One line of the audit log (NDJSON): what was decided for a call and how it ended; never the input itself. */
export interface AuditLine {
  time: string;
  session: string;
  event: string;
  tool: string;
  thread: 'main' | 'child';
  input_sha256: string;
  /** The rule that decided, `deny-after` for a call denied when its time was up, null when no rule matched. */
  rule: string | null;
  decision: Decision | 'none';
  /** answered: this approver's reply was the one kept; answered_elsewhere: another reply was first; escalated: sent
   * to --escalate-to/--escalate-exec; left: left to a human; ignored: the policy's ignore; outside_selection. */
  outcome: 'answered' | 'answered_elsewhere' | 'escalated' | 'left' | 'ignored' | 'outside_selection';
  why?: string;
}

export interface ApproverMetrics {
  decided(decision: Decision | 'none', rule: string | null): void;
  answeredElsewhere(): void;
}

export const noApproverMetrics: ApproverMetrics = { decided: () => undefined, answeredElsewhere: () => undefined };

export interface ServeOptions {
  policy: Policy;
  selectors: SessionSelectors;
  maxStreams: number;
  intervalMs: number;
  /** `--deny-after`: what the policy leaves to a human is denied once it has waited this long. */
  denyAfterMs?: number;
}

export interface ServeDeps {
  client: ApiClient;
  state: ListenState;
  signal: AbortSignal;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  random: () => number;
  notice: (line: string) => void;
  audit: (line: AuditLine) => void;
  metrics: ApproverMetrics;
  /** `--escalate-to` (listen's signed POST) or `--escalate-exec` (listen's command): the same body listen sends. */
  escalation?: Destination;
  /** How often a call waiting on a human is looked at again (its answer elsewhere, its deadline). */
  recheckMs?: number;
  tuning?: Partial<Tuning>;
}

/** The message an agent gets for a call denied by `--deny-after`. */
export const denyAfterMessage = (ms: number) =>
  `No one answered this confirmation within ${Math.round(ms / 1000)}s, so it was denied; ask again or continue without it.`;

/** The rule name of a call denied by --deny-after (audit log, metrics). */
export const DENY_AFTER_RULE = 'deny-after';

/** Answers in flight at once. */
const CONCURRENCY = 16;
/** A call waiting on a human is looked at again every this many --interval (30 s by default): a fleet of 1 000
 * waiting calls costs a few requests a second, not hundreds. */
const RECHECK_INTERVALS = 15;
/** A call seen in history before the session lists it as awaited is looked at again this soon. */
const UNSEEN_RECHECK_MS = 250;

export async function serveApprover(o: ServeOptions, deps: ServeDeps): Promise<Summary> {
  const owns = await ownsTest(deps.client, o.selectors);
  const destination = approver(o, deps, owns);
  return listen(
    { selectors: o.selectors, chosen: (t) => t === REQUIRES_ACTION, maxStreams: o.maxStreams, intervalMs: o.intervalMs },
    {
      client: deps.client,
      destination,
      state: deps.state,
      signal: deps.signal,
      graceMs: 5_000,
      sleep: deps.sleep,
      now: deps.now,
      random: deps.random,
      notice: deps.notice,
      result: () => undefined,
      // A fleet's waiting calls may all be pending at once (each waits on a human); each session's in order.
      tuning: { capacity: 100_000, sessionCapacity: 64, ...deps.tuning },
    },
  );
}

/** The approver as a delivery destination: `attempt` decides one waiting call and says whether it is settled. */
export function approver(o: ServeOptions, deps: ServeDeps, owns: (s: Obj) => boolean): Destination {
  const facts = new Facts(deps.client, o.policy);
  const recheck = deps.recheckMs ?? o.intervalMs * RECHECK_INTERVALS;
  /** Calls already handed to a human in this run (escalated or left): said once, not at every look. */
  const handed = new Set<string>();
  const escalations = new Map<string, number>();
  const accepted: Outcome = { kind: 'accepted' };

  const line = (sid: string, a: Asked, rule: string | null, decision: Decision | 'none', outcome: AuditLine['outcome'], why?: string): AuditLine => ({
    time: new Date(deps.now()).toISOString(),
    session: sid,
    event: a.eventId,
    tool: a.tool,
    thread: a.threadId === undefined ? 'main' : 'child',
    input_sha256: createHash('sha256')
      .update(JSON.stringify(a.input ?? null))
      .digest('hex'),
    rule,
    decision,
    outcome,
    ...(why ? { why } : {}),
  });

  const answer = async (sid: string, a: Asked, result: 'allow' | 'deny', rule: string, message?: string): Promise<Outcome> => {
    const sent: Sent = await confirm(deps.client, sid, a.eventId, result, message);
    if (sent === 'elsewhere') deps.metrics.answeredElsewhere();
    else deps.metrics.decided(result, rule);
    deps.audit(line(sid, a, rule, result, sent === 'answered' ? 'answered' : 'answered_elsewhere'));
    return accepted;
  };

  /** A call the policy leaves to a human: escalated once, then (with --deny-after) looked at until its time is up. */
  const toHuman = async (d: Delivery, sid: string, a: Asked, v: Verdict): Promise<Outcome> => {
    const rule = v.kind === 'decided' ? v.rule : null;
    const decision = v.kind === 'decided' ? v.decision : 'none';
    if (!handed.has(d.id)) {
      if (deps.escalation) {
        const n = (escalations.get(d.id) ?? 0) + 1;
        escalations.set(d.id, n);
        const out = await deps.escalation.attempt(d, n, deps.signal);
        if (out.kind === 'retry') return { ...out, reason: `escalating to ${deps.escalation.name}: ${out.reason}` };
        if (out.kind === 'drop') deps.notice(`session ${sid}: escalating call ${a.eventId} to ${deps.escalation.name} failed: ${out.reason}`);
        escalations.delete(d.id);
      }
      handed.add(d.id);
      deps.metrics.decided(decision, rule);
      deps.audit(line(sid, a, rule, decision, deps.escalation ? 'escalated' : 'left', v.kind === 'none' ? v.why : undefined));
    }
    if (o.denyAfterMs === undefined) return settle(d);
    const asked = Date.parse(a.processedAt ?? '');
    const left = (Number.isNaN(asked) ? deps.now() : asked) + o.denyAfterMs - deps.now();
    if (left > 0) return { kind: 'later', afterMs: Math.min(left, recheck) };
    const out = await answer(sid, a, 'deny', DENY_AFTER_RULE, denyAfterMessage(o.denyAfterMs));
    return settle(d, out);
  };

  const settle = (d: Delivery, out: Outcome = accepted): Outcome => {
    handed.delete(d.id);
    return out;
  };

  return {
    name: 'the approval policy',
    concurrency: CONCURRENCY,
    close: () => deps.escalation?.close?.() ?? Promise.resolve(),
    async attempt(d: Delivery): Promise<Outcome> {
      const a = askedOfDelivery(d);
      // A custom tool's result is not a confirmation: no policy answers it.
      if (!a) return accepted;
      const sid = d.sessionId;
      try {
        const s = await sessions.get(deps.client, sid);
        if (!owns(s)) {
          deps.audit(line(sid, a, null, 'none', 'outside_selection'));
          return settle(d);
        }
        const st = await standing(deps.client, s, a.eventId, deps.signal);
        if (st === 'answered') {
          deps.metrics.answeredElsewhere();
          deps.audit(line(sid, a, null, 'none', 'answered_elsewhere'));
          return settle(d);
        }
        if (st === 'unseen') return { kind: 'later', afterMs: UNSEEN_RECHECK_MS };
        const v = decide(o.policy, await facts.call(s, a));
        if (v.kind === 'decided' && (v.decision === 'allow' || v.decision === 'deny')) return settle(d, await answer(sid, a, v.decision, v.rule, v.message));
        if (v.kind === 'decided' && v.decision === 'ignore') {
          deps.metrics.decided('ignore', v.rule);
          deps.audit(line(sid, a, v.rule, 'ignore', 'ignored'));
          return settle(d);
        }
        return await toHuman(d, sid, a, v);
      } catch (e) {
        // A session gone has nothing left to answer.
        if (e instanceof ApiError && e.status === 404) return settle(d);
        // Anything else is tried again, the same decision each time: a deny that fails is never turned into an allow.
        return { kind: 'retry', reason: (e as Error).message, ...(e instanceof ApiError && e.status ? { status: e.status } : {}), afterMs: retryAfter(e) };
      }
    },
  };
}

const retryAfter = (e: unknown) => (e instanceof ApiError ? e.retryAfterMs : undefined);

/** The awaited call a derived `session.requires_action` delivery names, when it is a tool confirmation. */
function askedOfDelivery(d: Delivery): Asked | undefined {
  const body = JSON.parse(d.body) as { event?: { data?: unknown; session_thread_id?: unknown; processed_at?: unknown } };
  const e = body.event ?? {};
  const data = isObject(e.data) ? e.data : {};
  if (data.kind !== 'tool_confirmation' || typeof data.event_id !== 'string') return undefined;
  return {
    eventId: data.event_id,
    tool: String(data.name ?? ''),
    input: data.input,
    ...(typeof e.session_thread_id === 'string' ? { threadId: e.session_thread_id } : {}),
    ...(typeof e.processed_at === 'string' ? { processedAt: e.processed_at } : {}),
  };
}
