/**
 * `svc sessions rerun`, planned: a pure function from an original session and its history to the new session's
 * create body, the turns to replay and the idempotency keys, or the reason it is refused. Why the attempt is
 * derived from the original alone, and how a second run converges: docs/decisions/rerun.md.
 */
import { createHash } from 'node:crypto';
import type { SessionEvent } from '../../wire/events';
import { LIMITS } from '../../wire/limits';
import type { Session } from '../../wire/resources';

/** Metadata keys a rerun sets on the new session. */
export const RERUN_OF = 'rerun_of';
export const ATTEMPT = 'attempt';

export interface RerunOptions {
  /** Replay only the first N user messages. */
  turns?: number;
  /** Pin this agent version instead of the original's. */
  agentVersion?: number;
  /** The agent's current version instead of the original's. */
  latest?: boolean;
  /** Rerun a running original from its history so far. */
  force?: boolean;
}

export interface RerunPlan {
  original: string;
  /** The first session of the chain: the original's own `rerun_of`, else the original. */
  root: string;
  attempt: number;
  body: Record<string, unknown>;
  /** One `user.message` event per turn, in the original's order. */
  turns: Array<{ type: 'user.message'; data: Record<string, unknown> }>;
  createKey: string;
  turnKeys: string[];
}

export interface Refusal {
  original: string;
  reason: string;
}

/** Whether a session has a turn under way (or winding down, or a Continue starting). */
export const isRunning = (s: Session): boolean => s.status === 'running' || s.status === 'rescheduling' || s.stopping === true || s.continue_pending === true;

/** The coordinator's user messages, oldest first: one turn each (child threads are the agent's own work). */
export function userTurns(history: readonly SessionEvent[]): RerunPlan['turns'] {
  return history
    .filter((e) => e.type === 'user.message' && e.session_thread_id === undefined && e.data !== undefined)
    .map((e) => ({ type: 'user.message' as const, data: { content: (e.data as { content?: unknown }).content ?? [] } }));
}

/** An Idempotency-Key within the spec's 255 bytes: as is when short enough, else a hash of it. */
export function boundedKey(key: string): string {
  return Buffer.byteLength(key) <= LIMITS.idempotencyKeyBytes ? key : `svc-rerun:sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** The attempt a rerun of `s` is: one more than its own (a first rerun is attempt 1), of the chain's root. */
export function attemptOf(s: Session): { root: string; attempt: number } {
  const meta = (s.metadata ?? {}) as Record<string, unknown>;
  const root = typeof meta[RERUN_OF] === 'string' && meta[RERUN_OF] !== '' ? (meta[RERUN_OF] as string) : String(s.id);
  const own = root === s.id ? 0 : Number(meta[ATTEMPT]) || 0;
  return { root, attempt: own + 1 };
}

/** What a file binding is created from: its type and file, not the binding's own ID. */
function resourceBody(r: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, created_at: _c, updated_at: _u, session_id: _s, ...rest } = r;
  return rest;
}

export function planRerun(s: Session, history: readonly SessionEvent[], o: RerunOptions): RerunPlan | Refusal {
  const original = String(s.id);
  if (isRunning(s) && !o.force)
    return {
      original,
      reason: `session ${original} is running: interrupt it first (svc sessions interrupt ${original} --wait), or pass --force to rerun it from its history so far`,
    };
  const all = userTurns(history);
  if (!all.length) return { original, reason: `session ${original} has no user message to replay` };
  const turns = o.turns === undefined ? all : all.slice(0, o.turns);
  const { root, attempt } = attemptOf(s);
  const meta = { ...((s.metadata ?? {}) as Record<string, string>), [RERUN_OF]: root, [ATTEMPT]: String(attempt) };
  const overrides = s.agent_overrides && Object.keys(s.agent_overrides).length ? { agent_overrides: s.agent_overrides } : {};
  const version = o.latest ? undefined : (o.agentVersion ?? s.agent_version);
  const body: Record<string, unknown> = {
    agent_id: s.agent_id,
    ...(version !== undefined ? { agent_version: version } : {}),
    ...(s.environment_id ? { environment_id: s.environment_id } : {}),
    ...(s.title !== undefined && s.title !== null ? { title: s.title } : {}),
    ...(s.vault_ids?.length ? { vault_ids: s.vault_ids } : {}),
    ...(s.resources?.length ? { resources: s.resources.map((r) => resourceBody(r as Record<string, unknown>)) } : {}),
    ...overrides,
    metadata: meta,
  };
  const base = `svc-rerun:${root}:${attempt}`;
  return { original, root, attempt, body, turns, createKey: boundedKey(base), turnKeys: turns.map((_, i) => boundedKey(`${base}:turn:${i}`)) };
}

export const isRefusal = (p: RerunPlan | Refusal): p is Refusal => 'reason' in p;
