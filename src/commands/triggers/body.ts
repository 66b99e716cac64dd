import type { ApiClient } from '../../api/client';
import type { Obj } from '../../api/resources';
import { triggerPatches } from '../../api/checks/trigger';
import { SESSION_MODES, triggers } from '../../api/triggers';
import { parseCount } from '../../config/settings';
import { UsageError } from '../../runtime/errors';
import { flagTable, type FlagsOf } from '../../cli/flags';
import type { BodyFlag } from '../../cli/verbs/resource';
import { isObject } from '../../wire/is-object';

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
export const TRIGGER_COMPOSITE_FLAGS = flagTable({
  sessionMode: { flags: '--session-mode <mode>', description: 'how runs find their session', choices: SESSION_MODES },
  cron: { flags: '--cron <expression>', description: 'run on this cron schedule, e.g. "0 9 * * 1-5"' },
  timezone: { flags: '--timezone <tz>', description: 'time zone of the schedule, e.g. Europe/Paris' },
  message: { flags: '--message <text>', description: 'a user message sent on every run (repeatable; becomes initial_events)', repeat: true },
});

/** The composite flags of a trigger, as commander parses them. */
export type TriggerFlags = FlagsOf<typeof TRIGGER_COMPOSITE_FLAGS>;

/** Merges the composite flags over the body from --data and the simple flags. */
export function shapeTrigger(body: Doc, opts: TriggerFlags): Doc {
  const out = { ...body };
  if (opts.sessionMode !== undefined) out.session_mode = opts.sessionMode;
  if (opts.cron !== undefined || opts.timezone !== undefined) {
    const base = isObject(body.schedule) ? body.schedule : {};
    const expression = opts.cron ?? base.expression;
    if (expression === undefined) throw new UsageError('--timezone needs --cron (or a schedule in --data)');
    const timezone = opts.timezone ?? base.timezone;
    out.schedule = { type: 'cron', expression, ...(timezone !== undefined ? { timezone } : {}) };
  }
  if (opts.message) out.initial_events = opts.message.map((text) => ({ type: 'user.message', data: { content: [{ type: 'text', text }] } }));
  return out;
}

/** An update sent as its PATCHes in order; returns the trigger as the last one left it. */
export async function updateTrigger(c: ApiClient, id: string, body: Doc): Promise<Obj> {
  let last: Obj | undefined;
  for (const patch of triggerPatches(body)) last = await triggers.update(c, id, patch);
  return last!;
}
