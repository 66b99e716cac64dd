import { Option, type Command } from 'commander';
import type { ApiClient } from '../../api/client';
import type { Obj } from '../../api/resources';
import { SESSION_MODES, SESSION_SHAPING, triggers } from '../../api/triggers';
import { parseCount } from '../../config/settings';
import { ExitCodeError, UsageError } from '../../errors';
import { collect } from '../../cli/flags';
import type { Opts } from '../../cli/action';
import type { BodyFlag } from '../../cli/verbs/resource';
import { isObject } from '../../is-object';

type Doc = Record<string, any>;

export const TRIGGER_FLAGS: BodyFlag[] = [
  { flags: '--name <name>', description: 'trigger name', field: 'name' },
  { flags: '--agent <id>', description: 'agent ID', field: 'agent_id' },
  {
    flags: '--agent-version <n>',
    description: 'agent version (default: the current one)',
    field: 'agent_version',
    parse: (v) => parseCount(v, '--agent-version', 1),
  },
  { flags: '--environment <id>', description: 'environment ID', field: 'environment_id' },
];

/** `--session-mode`, `--cron`/`--timezone` (schedule) and `--message` (initial_events, repeatable). */
export function addTriggerFlags(cmd: Command): Command {
  return cmd
    .addOption(new Option('--session-mode <mode>', 'how runs find their session').choices(SESSION_MODES))
    .option('--cron <expression>', 'run on this cron schedule, e.g. "0 9 * * 1-5"')
    .option('--timezone <tz>', 'time zone of the schedule, e.g. Europe/Paris')
    .option('--message <text>', 'a user message sent on every run (repeatable; becomes initial_events)', collect);
}

/** Merges the composite flags over the body from --data and the simple flags. */
export function shapeTrigger(body: Doc, opts: Opts): Doc {
  const out = { ...body };
  if (opts.sessionMode !== undefined) out.session_mode = opts.sessionMode;
  if (opts.cron !== undefined || opts.timezone !== undefined) {
    const base = isObject(body.schedule) ? body.schedule : {};
    const expression = opts.cron ?? base.expression;
    if (expression === undefined) throw new UsageError('--timezone needs --cron (or a schedule in --data)');
    const timezone = opts.timezone ?? base.timezone;
    out.schedule = { type: 'cron', expression, ...(timezone !== undefined ? { timezone } : {}) };
  }
  if (opts.message) out.initial_events = (opts.message as string[]).map((text) => ({ type: 'user.message', data: { content: [{ type: 'text', text }] } }));
  return out;
}

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

/** apply's plan for a live trigger: refuses, before any write, what the service is certain to refuse. */
export function applyPatches(live: Obj, patch: Doc): Doc[] {
  const shaping = SESSION_SHAPING.filter((k) => k in patch);
  if (live.session_mode === 'reuse_session' && shaping.length && patch.session_mode !== 'new_session') {
    throw new ExitCodeError(
      7,
      `trigger ${live.id} uses reuse_session, so ${shaping.join(', ')} cannot change: set session_mode: new_session in the file, or create a new trigger`,
    );
  }
  return triggerPatches(patch);
}

/** An update sent as its PATCHes in order; returns the trigger as the last one left it. */
export async function updateTrigger(c: ApiClient, id: string, body: Doc): Promise<Obj> {
  let last: Obj | undefined;
  for (const patch of triggerPatches(body)) last = await triggers.update(c, id, patch);
  return last!;
}
