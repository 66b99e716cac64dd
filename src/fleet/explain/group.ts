/**
 * Many sessions explained, grouped by cause (largest group first), each group with its count, one example and the
 * one bulk command that moves the group on, written for the selection the operator gave.
 */
import { SESSION_ERROR_RECOVERY } from '../../wire/errors';
import { groupKey, type Cause, type CauseCode, type Explained } from './causes';
import { shellWord as q, span } from './explain';

export interface Group {
  code: CauseCode;
  /** What splits the code into groups, when something does. */
  error_type?: string;
  stop_reason?: string;
  environment_id?: string;
  count: number;
  /** One session of the group, and its line. */
  example: { id: string; summary: string };
  advice?: string;
  /** The one command for the whole group; absent where nothing moves it on (idle, unknown, an unlisted error type). */
  command?: string;
  session_ids: string[];
}

/** How the operator picked the sessions, to write each group's command for the same sessions. */
export interface Selection {
  /** The session IDs given (as arguments or on standard input); else the selector flags are used. */
  ids?: string[];
  /** The selector flags as typed, each flag with its value (`--newer-than`, `2h`), without `--status`. */
  flags: string[];
}

/** More IDs than this and a group's command selects by the group's filters and age rather than naming each. */
const MAX_NAMED = 10;

/**
 * A bulk command for the group: `svc VERB` with the group's own filters (`--status failed --error-type T`) and the
 * operator's selectors, or the group's IDs when the operator gave IDs (by age when there are many).
 */
function bulk(sel: Selection, g: Explained[], now: number, verb: string, filters: string[], tail: string[] = [], takesIds = true): string {
  const parts = ['svc', ...verb.split(' ')];
  if (sel.ids && takesIds && g.length <= MAX_NAMED) parts.push(...g.map((e) => e.id));
  else {
    parts.push(...filters);
    if (sel.ids) {
      const oldest = Math.min(...g.map((e) => Date.parse(e.created_at ?? '') || now));
      parts.push('--newer-than', span(now - oldest + 60_000));
    } else parts.push(...sel.flags);
  }
  return [...parts, ...tail].map(q).join(' ');
}

function commandFor(c: Cause, sel: Selection, g: Explained[], now: number): string | undefined {
  const b = (verb: string, filters: string[], tail?: string[], takesIds?: boolean) => bulk(sel, g, now, verb, filters, tail, takesIds);
  switch (c.code) {
    case 'session_error': {
      const t = String(c.facts.error_type);
      if (c.facts.listed_in_spec === false) return undefined;
      const filters = ['--error-type', t];
      if (t === 'quota_exceeded' || t === 'max_steps')
        return `${b('sessions explain', filters, ['-q'], false)} | xargs -I{} svc sessions send {} --text Continue.`;
      if (t === 'model_unavailable' || t === 'invalid_request') return b('sessions rerun', ['--status', 'failed', ...filters], ['--latest']);
      return b('sessions rerun', ['--status', 'failed', ...filters]);
    }
    case 'stop_unfinished':
      return b('sessions rerun', ['--status', 'failed']);
    case 'terminated':
      return b('sessions rerun', ['--status', 'terminated']);
    case 'archived':
      // An archived session's status reads terminated; the selection leaves archived ones out unless asked.
      return b('sessions rerun', ['--include-archived', '--status', 'terminated']);
    case 'awaiting_confirmation':
    case 'awaiting_tool_result':
    case 'awaiting_reply':
      return b('top', ['--status', 'waiting'], [], false);
    case 'interrupted':
    case 'interrupted_input_held':
      return b('sessions continue', ['--status', 'interrupted'], ['--yes']);
    case 'rescheduling':
      return b('sessions wait', ['--status', 'rescheduling'], ['--timeout', '10m']);
    case 'running':
      return b('sessions wait', ['--status', 'running']);
    case 'work_queued_no_worker':
    case 'worker_heartbeat_stale':
      return `svc worker run --environment ${q(String(c.facts.environment_id))}`;
    default:
      return undefined;
  }
}

/** Groups by the main cause (`groupKey`), largest first (ties by code, so the order is stable). */
export function groupExplained(all: Explained[], sel: Selection, now: number): Group[] {
  const by = new Map<string, Explained[]>();
  for (const e of all) {
    const k = groupKey(e.causes[0]);
    const list = by.get(k);
    if (list) list.push(e);
    else by.set(k, [e]);
  }
  const groups = [...by.entries()].map(([key, g]): Group & { key: string } => {
    const c = g[0].causes[0];
    const split = (name: string) => (typeof c.facts[name] === 'string' ? { [name]: c.facts[name] as string } : {});
    const t = c.code === 'session_error' ? String(c.facts.error_type) : undefined;
    return {
      key,
      code: c.code,
      ...(c.code === 'session_error' ? split('error_type') : {}),
      ...(c.code === 'stop_unfinished' ? split('stop_reason') : {}),
      ...(c.code === 'work_queued_no_worker' || c.code === 'worker_heartbeat_stale' ? split('environment_id') : {}),
      count: g.length,
      example: { id: g[0].id, summary: c.summary },
      ...(t !== undefined && Object.hasOwn(SESSION_ERROR_RECOVERY, t) ? { advice: SESSION_ERROR_RECOVERY[t] } : c.advice ? { advice: c.advice } : {}),
      command: commandFor(c, sel, g, now),
      session_ids: g.map((e) => e.id),
    };
  });
  groups.sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  return groups.map(({ key: _key, ...g }) => g);
}
