/**
 * `svc sessions explain` for one session: a pure function from what was read of it (its object, recent history,
 * pending inputs, its environment's kind and its work row) to its causes, each with the commands that move it on.
 * What recognises each cause: docs/decisions/explain.md.
 */
import type { SessionEvent } from '../../wire/events';
import type { PendingInput, Session, WorkItem } from '../../wire/resources';
import { SESSION_ERROR_RECOVERY, UNFINISHED_STOPS } from '../../wire/errors';
import { sessionState, stateText } from '../../session/state';
import { lastTurn, lastTurnError } from '../last-turn';
import type { AwaitedCall, Cause, Explained } from './causes';

/** A queued work row unclaimed this long means no worker polls the environment (a polling worker claims at once). */
export const QUEUED_STALE_MS = 60_000;

/** Everything read of one session; a member is absent when it was not read (not needed, or the read failed). */
export interface SessionFacts {
  session: Session;
  /** Recent history, newest first (one page). */
  recent?: SessionEvent[];
  pending?: PendingInput[];
  /** The session's environment runs its sandbox tools on the owner's workers. */
  selfHosted?: boolean;
  /** The session's live work row (not completed, failed or cancelled), when it has one. */
  row?: WorkItem;
  now: number;
}

/** What a session needs read beyond its object to be explained; the rest is never requested. */
export interface Needs {
  history: boolean;
  pending: boolean;
  /** The environment's kind and, when self-hosted, its work rows. */
  work: boolean;
}

export function needs(s: Session): Needs {
  const st = sessionState(s);
  const stop = String(s.stop_reason?.type ?? '');
  return {
    history: st.label === 'failed' || st.label === 'waiting' || st.label === 'rescheduling' || (st.label === 'idle' && stop !== '' && stop !== 'end_turn'),
    pending: st.label === 'interrupted',
    work: typeof s.environment_id === 'string' && s.environment_id !== '' && (st.label === 'running' || st.label === 'rescheduling'),
  };
}

/** A word of a suggested command, quoted for a POSIX shell when it needs to be. */
export const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
const ms = (from: string | undefined, now: number): number | undefined => {
  const t = from === undefined ? NaN : Date.parse(from);
  return Number.isNaN(t) ? undefined : Math.max(0, now - t);
};

/** A span for a line: `45s`, `12m`, `3h`, `2d`. */
export function span(msv: number): string {
  const s = Math.floor(msv / 1000);
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 172_800) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

const INPUT_CHARS = 80;

/** A tool input on one line, cut to INPUT_CHARS. */
export function inputSummary(input: unknown): string | undefined {
  if (input === undefined) return undefined;
  const text = JSON.stringify(input) ?? String(input);
  return text.length > INPUT_CHARS ? `${text.slice(0, INPUT_CHARS - 1)}…` : text;
}

/** Error types whose recovery is new input in the same session ("…and continue", "Send new input to continue"). */
const CONTINUE_IN_PLACE = new Set(['quota_exceeded', 'max_steps']);
/** Error types whose recovery changes the agent first ("Choose an available model", "Fix the model request"). */
const FIX_AGENT_FIRST = new Set(['model_unavailable', 'invalid_request']);

export function explainSession(f: SessionFacts): Explained {
  const s = f.session;
  const id = String(s.id);
  const turnError = f.recent ? lastTurnError(f.recent) : undefined;
  const st = sessionState(s, { errorType: turnError?.type, pendingInputs: f.pending?.length });
  const causes = causesOf(f, id, st.label, turnError);
  return { id, title: s.title, created_at: typeof s.created_at === 'string' ? s.created_at : undefined, state: stateText(st), causes };
}

function causesOf(f: SessionFacts, id: string, label: string, turnError: ReturnType<typeof lastTurnError>): Cause[] {
  const s = f.session;
  const raw = { status: s.status, stop_reason: s.stop_reason ?? null, interrupted: s.interrupted, stopping: s.stopping, continue_pending: s.continue_pending };
  switch (label) {
    case 'terminated':
    case 'archived':
      return [
        {
          code: label,
          summary: `${label}: it takes no new input`,
          facts: { archived_at: s.archived_at ?? null },
          commands: [`svc sessions rerun ${id}`],
        },
      ];
    case 'interrupted': {
      const held = f.pending?.length ?? 0;
      const facts = { pending_inputs: held, control_epoch: s.control_epoch };
      if (held > 0)
        return [
          {
            code: 'interrupted_input_held',
            summary: `interrupted with ${held} input${held === 1 ? '' : 's'} held behind the interrupt (queued ${ageOf(f.pending?.[0]?.queued_at, f.now)}): nothing runs until a Continue`,
            facts: { ...facts, oldest_queued_at: f.pending?.[0]?.queued_at },
            commands: [`svc sessions continue ${id}`],
          },
        ];
      return [{ code: 'interrupted', summary: 'interrupted: its turn stopped before the end', facts, commands: [`svc sessions continue ${id}`] }];
    }
    case 'waiting':
      return waits(f, id);
    case 'rescheduling': {
      const since = lastStatusAt(f.recent, 'rescheduling') ?? (s.updated_at as string | undefined);
      const resched: Cause = {
        code: 'rescheduling',
        summary: `the platform is rescheduling its turn${since ? ` (since ${ageOf(since, f.now)})` : ''}`,
        facts: { since },
        commands: [`svc sessions wait ${id} --timeout 10m`],
      };
      return [resched, ...workCauses(f)];
    }
    case 'running': {
      const w = workCauses(f);
      if (w.length) return w;
      const detail = s.stopping ? 'winding down' : s.continue_pending ? 'a Continue is starting' : 'running its turn';
      return [
        {
          code: 'running',
          summary: detail,
          facts: { ...raw, ...(f.row ? rowFacts(f.row) : {}) },
          commands: [`svc sessions wait ${id}`, `svc sessions tail ${id}`],
        },
      ];
    }
    case 'failed':
    case 'idle': {
      if (turnError && (label === 'failed' || s.stop_reason?.type === 'max_steps')) return [errorCause(f, id, turnError)];
      const stop = String(s.stop_reason?.type ?? '');
      if (label === 'failed' && Object.hasOwn(UNFINISHED_STOPS, stop)) {
        const u = UNFINISHED_STOPS[stop];
        return [
          {
            code: 'stop_unfinished',
            summary: `the turn stopped unfinished: ${u.what}`,
            facts: { stop_reason: stop },
            advice: u.recovery,
            commands: [`svc sessions rerun ${id}`],
          },
        ];
      }
      if (label === 'failed') break;
      return [
        {
          code: 'idle',
          summary: 'idle: its last turn finished; nothing holds it',
          facts: { stop_reason: stop || null },
          commands: [`svc sessions send ${id} --text "…"`],
        },
      ];
    }
  }
  // svc cannot say more than what it read.
  const why =
    label === 'failed'
      ? 'the turn stopped on an error, but its session.error is not in the recent history'
      : `status "${String(s.status)}" is not one svc knows`;
  return [{ code: 'unknown', summary: why, facts: raw, commands: [`svc sessions get ${id} -o json`, `svc sessions events ${id}`] }];
}

function errorCause(f: SessionFacts, id: string, e: NonNullable<ReturnType<typeof lastTurnError>>): Cause {
  const listed = Object.hasOwn(SESSION_ERROR_RECOVERY, e.type);
  const d = e.event.data ?? {};
  const facts: Record<string, unknown> = {
    error_type: e.type,
    message: e.message,
    at: e.event.processed_at,
    ...(typeof d.mcp_server_name === 'string' ? { mcp_server_name: d.mcp_server_name } : {}),
    ...(listed ? {} : { listed_in_spec: false }),
  };
  const commands: string[] = [];
  if (!listed) commands.push(`svc sessions events ${id}`);
  else if (CONTINUE_IN_PLACE.has(e.type)) commands.push(`svc sessions send ${id} --text "Continue."`);
  else if (FIX_AGENT_FIRST.has(e.type)) commands.push(`svc agents update ${f.session.agent_id ?? 'AGENT'} …`, `svc sessions rerun ${id} --latest`);
  else {
    if (e.type === 'mcp_authentication_failed') for (const v of f.session.vault_ids ?? []) commands.push(`svc vaults credentials list ${v}`);
    commands.push(`svc sessions rerun ${id}`);
  }
  const where = typeof d.mcp_server_name === 'string' ? ` (MCP server ${d.mcp_server_name})` : '';
  return {
    code: 'session_error',
    summary: `the turn ended in session.error ${e.type}${where}${e.message ? `: ${e.message}` : ''} (${ageOf(e.event.processed_at, f.now)})`,
    facts,
    ...(listed ? { advice: SESSION_ERROR_RECOVERY[e.type] } : {}),
    commands,
  };
}

/** Each awaited call, from `stop_reason.event_ids` and the calls the recent history shows. */
function waits(f: SessionFacts, id: string): Cause[] {
  const ids = (f.session.stop_reason?.event_ids ?? []).filter((x): x is string => typeof x === 'string');
  const byId = new Map((f.recent ?? []).map((e) => [e.id, e]));
  const confirm: AwaitedCall[] = [];
  const custom: AwaitedCall[] = [];
  const unseen: string[] = [];
  for (const eid of ids) {
    const e = byId.get(eid);
    if (!e) {
      unseen.push(eid);
      continue;
    }
    const call: AwaitedCall = {
      event_id: eid,
      tool: typeof e.data?.name === 'string' ? e.data.name : undefined,
      input: inputSummary(e.data?.input),
      since: e.processed_at,
      waited_ms: ms(e.processed_at, f.now),
      ...(e.session_thread_id ? { thread_id: e.session_thread_id } : {}),
    };
    (e.type === 'agent.custom_tool_use' ? custom : confirm).push(call);
  }
  const line = (c: AwaitedCall) =>
    `${c.tool ?? 'a tool'} ${c.input ?? ''} (waiting ${c.waited_ms === undefined ? '?' : span(c.waited_ms)}, ${c.thread_id ? `thread ${c.thread_id}` : 'main thread'})`.replace(
      '  ',
      ' ',
    );
  const out: Cause[] = [];
  if (confirm.length)
    out.push({
      code: 'awaiting_confirmation',
      summary: `waiting for a tool confirmation: ${confirm.map(line).join('; ')}`,
      facts: { calls: confirm },
      commands: confirm
        .map((c) => `svc sessions confirm ${id} ${c.event_id} --allow`)
        .concat(confirm.map((c) => `svc sessions confirm ${id} ${c.event_id} --deny --message "…"`)),
    });
  if (custom.length)
    out.push({
      code: 'awaiting_tool_result',
      summary: `waiting for a custom tool result: ${custom.map(line).join('; ')}`,
      facts: { calls: custom },
      commands: custom.map((c) => `svc sessions tool-result ${id} ${c.event_id} --text "…"`),
    });
  if (unseen.length || !out.length)
    out.push({
      code: 'awaiting_reply',
      summary: `waiting for ${unseen.length || 'a'} repl${unseen.length === 1 ? 'y' : 'ies'} to calls the recent history does not show`,
      facts: { event_ids: unseen },
      commands: unseen.flatMap((e) => [`svc sessions confirm ${id} ${e} --allow`, `svc sessions tool-result ${id} ${e} --text "…"`]),
    });
  return out;
}

/** The work row's facts a cause shows. */
function rowFacts(row: WorkItem): Record<string, unknown> {
  return {
    work_row: row.id,
    environment_id: row.environment_id,
    row_status: row.status,
    generation: row.generation,
    worker_id: row.worker_id,
    lease_ttl_ms: row.lease_ttl_ms,
    latest_heartbeat_at: row.latest_heartbeat_at,
  };
}

/** A self-hosted session's work row, when it explains why the turn does not move. */
function workCauses(f: SessionFacts): Cause[] {
  const row = f.row;
  if (!f.selfHosted || !row) return [];
  const env = String(row.environment_id ?? f.session.environment_id);
  const facts = rowFacts(row);
  const start = `svc worker run --environment ${shellWord(env)}`;
  if (row.status === 'queued') {
    const queued = ms(String(row.claimed_at ?? row.created_at), f.now) ?? 0;
    if (queued < QUEUED_STALE_MS) return [];
    const lost =
      Number(row.generation) > 1 ? `, re-queued ${Number(row.generation) - 1} time${Number(row.generation) === 2 ? '' : 's'} after a lost worker` : '';
    return [
      {
        code: 'work_queued_no_worker',
        summary: `its work row ${row.id} has waited ${span(queued)} in the queue of environment ${env} with no worker claiming it${lost}`,
        facts: { ...facts, queued_ms: queued },
        commands: [start, `svc work list ${shellWord(env)}`],
      },
    ];
  }
  if (['starting', 'active', 'stopping'].includes(String(row.status))) {
    const beat = row.latest_heartbeat_at ?? row.started_at ?? row.acknowledged_at ?? row.claimed_at;
    const age = ms(beat === undefined ? undefined : String(beat), f.now);
    const ttl = Number(row.lease_ttl_ms);
    if (age === undefined || !Number.isFinite(ttl) || age <= ttl) return [];
    return [
      {
        code: 'worker_heartbeat_stale',
        summary: `worker ${row.worker_id ?? '(unnamed)'} holds its work row ${row.id} but last beat ${span(age)} ago, past its ${span(ttl)} lease: the worker is stuck or gone; the platform re-queues the row at generation ${Number(row.generation) + 1}`,
        facts: { ...facts, heartbeat_age_ms: age },
        commands: [start, `svc work list ${shellWord(env)}`],
      },
    ];
  }
  return [];
}

function lastStatusAt(recent: SessionEvent[] | undefined, status: string): string | undefined {
  const e = lastTurn(recent ?? []).find((x) => x.type === 'session.status' && x.data?.status === status);
  return e?.processed_at;
}

function ageOf(at: string | undefined, now: number): string {
  const m = ms(at, now);
  return m === undefined ? 'at an unknown time' : `${span(m)} ago`;
}
