import { Option, type Command } from 'commander';
import type { ApiClient } from '../../api/client';
import type { Obj } from '../../api/resources';
import { triggerPatches } from '../../api/checks/trigger';
import { SESSION_MODES, triggers } from '../../api/triggers';
import { parseCount } from '../../config/settings';
import { UsageError } from '../../runtime/errors';
import { collect } from '../../cli/flags';
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
export function addTriggerFlags(cmd: Command): Command {
  return cmd
    .addOption(new Option('--session-mode <mode>', 'how runs find their session').choices(SESSION_MODES))
    .option('--cron <expression>', 'run on this cron schedule, e.g. "0 9 * * 1-5"')
    .option('--timezone <tz>', 'time zone of the schedule, e.g. Europe/Paris')
    .option('--message <text>', 'a user message sent on every run (repeatable; becomes initial_events)', collect);
}

/** The composite flags of a trigger, as commander parses them. */
export interface TriggerFlags {
  sessionMode?: string;
  cron?: string;
  timezone?: string;
  message?: string[];
}

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
