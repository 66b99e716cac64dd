import { isDeepStrictEqual } from 'node:util';
import { LIMITS } from '../../wire/limits';
import { HttpError, invalidParam, precondition } from '../errors';
import type { EmuRequest } from '../router';
import type { Emulator } from '../server';
import type { SessionsService } from '../services';
import { paginate, publicView, type Rec } from '../store';
import { validate, type Schema } from '../validate';

const SESSION_MODES = ['new_session', 'reuse_session'] as const;
/** Changing these on a reuse_session trigger is 400 failed_precondition_error (config rule 11). */
const SESSION_SHAPING = ['agent_id', 'agent_version', 'environment_id', 'resources'] as const;

const TRIGGER_SCHEMA: Schema = {
  name: { type: 'string', required: true },
  agent_id: { type: 'string', required: true },
  agent_version: { type: 'integer', min: 1 },
  environment_id: { type: 'string' },
  resources: { type: 'array', items: { type: 'object' } },
  session_mode: { type: 'string', required: true, enum: SESSION_MODES },
  schedule: { type: 'object', nullable: true, fields: { type: { type: 'string', required: true, enum: ['cron'] }, expression: { type: 'string', required: true, pattern: /^\S+(\s+\S+){4}$/ }, timezone: { type: 'string' } } },
  initial_events: { type: 'array', required: true, items: { type: 'object' } },
  metadata: { type: 'map' },
};

type TriggerError = { type: string; message: string };
type Trigger = Rec & {
  name: string;
  agent_id: string;
  session_mode: (typeof SESSION_MODES)[number];
  initial_events: unknown[];
  status: 'active' | 'paused';
  paused_reason: { error: TriggerError; session_id: string } | null;
  /** The session a reuse_session trigger keeps sending to. */
  session_id: string | null;
  _skips: { session_id: string; count: number } | null;
};
/** `status` is the emulator's word for the outcome: `succeeded`, `skipped` or `failed`. */
type TriggerRun = Rec & { trigger_id: string; session_id: string | null; context: { type: 'manual' | 'system' }; status: 'succeeded' | 'skipped' | 'failed'; error?: TriggerError };

/** Skip reasons that count towards the automatic pause (config rule 12). */
const PAUSING_SKIPS = ['session_failed', 'session_queue_full'];

/**
 * `initial_events` hold queueable user messages only (config rule 11): an interrupt or any other
 * event type is a bad field. File blocks must name files a session can mount (Versioning rule 2).
 */
function checkInitialEvents(emu: Emulator, events: any[]): void {
  events.forEach((e, i) => {
    const p = `body.initial_events[${i}]`;
    if (e?.type !== 'user.message') invalidParam(`${p}.type`, `initial_events accept user.message only, not ${String(e?.type)}`);
    const content = e.data?.content;
    if (!Array.isArray(content)) invalidParam(`${p}.data.content`, 'a user.message needs data.content, an array of blocks');
    content.forEach((b: any, j: number) => {
      if (b?.type !== 'file' && b?.type !== 'image') return;
      const f = emu.services.files?.get(b.file_id);
      const at = `${p}.data.content[${j}].file_id`;
      if (emu.services.files && !f) invalidParam(at, `file ${String(b.file_id)} not found`);
      if (f?.compat) precondition(`file ${f.id} was uploaded in the compatibility format and cannot be mounted on a session`);
      if (f?.purpose === 'batch') precondition(`file ${f.id} is a batch file and cannot be attached to a session`);
    });
  });
}

function checkTrigger(emu: Emulator, t: Record<string, any>): void {
  // Read through the agents module's collection: a trigger must name an existing agent.
  if (!emu.collection('agents', 'agent', 'agent').get(t.agent_id)) invalidParam('body.agent_id', `agent ${t.agent_id} not found`);
  const envs = emu.services.environments;
  if (t.environment_id !== undefined && envs && !envs.get(t.environment_id)) invalidParam('body.environment_id', `environment ${t.environment_id} not found`);
  checkInitialEvents(emu, t.initial_events);
}

const sessionsOf = (emu: Emulator): SessionsService => emu.services.sessions ?? precondition('sessions are not available in this emulator, so a trigger cannot run');

export function registerTriggers(emu: Emulator): void {
  const triggers = emu.collection<Trigger>('triggers', 'trigger', 'trigger');
  const runs = emu.collection<TriggerRun>('trigger_runs', 'trun', 'trigger run');
  const triggerOf = (r: EmuRequest) => triggers.must(r.params.id);

  /** Sends the initial events to the trigger's session, creating one when there is none to reuse. */
  const fire = (t: Trigger, sessions: SessionsService): { session_id: string; skip?: string } => {
    const reuse = t.session_mode === 'reuse_session' && t.session_id !== null && sessions.exists(t.session_id) ? t.session_id : undefined;
    if (reuse && sessions.failedIdle(reuse)) return { session_id: reuse, skip: 'session_failed' };
    if (reuse && sessions.queueFull(reuse)) return { session_id: reuse, skip: 'session_queue_full' };
    const sessionId = reuse ?? sessions.create(Object.fromEntries(SESSION_SHAPING.filter((k) => t[k] !== undefined).map((k) => [k, t[k]]))).id;
    if (t.session_mode === 'reuse_session') t.session_id = sessionId;
    // Input to an idle session resumes it (config rule 11: a reuse_session trigger resumes a stopped session).
    if (t.initial_events.length) sessions.send(sessionId, 'next_turn', t.initial_events);
    return { session_id: sessionId };
  };

  /** One run: its outcome, and the consecutive-skip count that pauses the trigger at 3 (config rule 12). */
  const run = (t: Trigger, context: TriggerRun['context']): TriggerRun => {
    const sessions = sessionsOf(emu);
    let outcome: Pick<TriggerRun, 'session_id' | 'status' | 'error'>;
    try {
      const fired = fire(t, sessions);
      outcome = fired.skip
        ? { session_id: fired.session_id, status: 'skipped', error: { type: fired.skip, message: `session ${fired.session_id} was skipped: ${fired.skip}` } }
        : { session_id: fired.session_id, status: 'succeeded' };
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      outcome = { session_id: null, status: 'failed', error: { type: 'fire_failed', message: e.message } };
    }
    const pausing = outcome.status === 'skipped' && PAUSING_SKIPS.includes(outcome.error!.type);
    const count = pausing && t._skips?.session_id === outcome.session_id ? t._skips.count + 1 : 1;
    t._skips = pausing ? { session_id: outcome.session_id!, count } : null;
    if (pausing && count >= LIMITS.triggerSkipPause) {
      triggers.touch(t, { status: 'paused', paused_reason: { error: outcome.error!, session_id: outcome.session_id! }, _skips: null } as Partial<Trigger>);
    }
    return runs.insert({ trigger_id: t.id, context, ...outcome });
  };

  emu.router.post('/v1/triggers', (r) => {
    const body = validate(r.body, TRIGGER_SCHEMA);
    checkTrigger(emu, body);
    const t = triggers.insert({ resources: [], schedule: null, metadata: {}, ...body, status: 'active', paused_reason: null, session_id: null, _skips: null } as unknown as Trigger);
    return { status: 201, body: publicView(t) };
  }, { idempotent: true });

  emu.router.get('/v1/triggers', (r) => {
    const agentId = r.query.get('agent_id');
    const page = paginate(triggers.values().filter((t) => agentId === null || t.agent_id === agentId), r.query);
    return { status: 200, body: { ...page, items: page.items.map(publicView) } };
  });

  emu.router.get('/v1/triggers/:id', (r) => ({ status: 200, body: publicView(triggerOf(r)) }));

  emu.router.patch('/v1/triggers/:id', (r) => {
    const t = triggerOf(r);
    const body = validate(r.body, TRIGGER_SCHEMA, { patch: true });
    const next = { ...t, ...body };
    if (t.session_mode === 'reuse_session') {
      const changed = SESSION_SHAPING.filter((k) => k in body && !isDeepStrictEqual(body[k], t[k]));
      if (changed.length) precondition(`a reuse_session trigger cannot change ${changed.join(', ')}; switch session_mode to new_session first or create a new trigger`);
    }
    // Updates re-validate the unchanged initial_events too (config rule 11).
    checkTrigger(emu, next);
    const reset = body.session_mode === 'new_session' ? { session_id: null, _skips: null } : {};
    return { status: 200, body: publicView(triggers.touch(t, { ...body, ...reset } as Partial<Trigger>)) };
  });

  emu.router.delete('/v1/triggers/:id', (r) => {
    triggers.delete(triggerOf(r).id);
    return { status: 204 };
  });

  emu.router.post('/v1/triggers/:id/run', (r) => {
    const t = triggerOf(r);
    if (t.status === 'paused') precondition(`trigger ${t.id} is paused; resume it first`);
    return { status: 201, body: publicView(run(t, { type: 'manual' })) };
  }, { body: 'none' });

  emu.router.get('/v1/triggers/:id/runs', (r) => {
    const t = triggerOf(r);
    const newestFirst = runs.values().filter((x) => x.trigger_id === t.id).reverse();
    const page = paginate(newestFirst, r.query);
    return { status: 200, body: { ...page, items: page.items.map(publicView) } };
  });

  emu.router.post('/v1/triggers/:id/pause', (r) => {
    const t = triggerOf(r);
    if (t.status !== 'paused') triggers.touch(t, { status: 'paused', paused_reason: null } as Partial<Trigger>);
    return { status: 200, body: publicView(t) };
  }, { body: 'none' });

  emu.router.post('/v1/triggers/:id/resume', (r) => {
    const t = triggerOf(r);
    if (t.status !== 'active') triggers.touch(t, { status: 'active', paused_reason: null, _skips: null } as Partial<Trigger>);
    return { status: 200, body: publicView(t) };
  }, { body: 'none' });
}
