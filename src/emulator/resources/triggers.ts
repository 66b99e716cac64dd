import { isDeepStrictEqual } from 'node:util';
import { LIMITS } from '../../wire/limits';
import { HttpError, invalidParam, precondition } from '../errors';
import type { EmuRequest } from '../router';
import type { Emulator } from '../server';
import type { SessionsService } from '../services';
import { listReply, publicView, type Collection, type Rec } from '../store';
import { listNewest } from '../listing';
import { validate, type Schema } from '../validate';
import { checkSchedule, TriggerScheduler, type Schedule } from './trigger-schedule';
import { mergeMetadata } from '../metadata';

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
  schedule: {
    type: 'object',
    nullable: true,
    fields: { type: { type: 'string', required: true, enum: ['cron'] }, expression: { type: 'string', required: true }, timezone: { type: 'string' } },
  },
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
  schedule: Schedule | null;
  /** The session a reuse_session trigger keeps sending to. */
  session_id: string | null;
  _skips: { session_id: string; count: number } | null;
  /** The next cron occurrence on the emulator clock (trigger-schedule.ts). */
  _next_fire_ms?: number | null;
};
/** `status` is the emulator's word for the outcome: `succeeded`, `skipped` or `failed`. */
type TriggerRun = Rec & {
  trigger_id: string;
  session_id: string | null;
  context: { type: 'manual' | 'system' };
  status: 'succeeded' | 'skipped' | 'failed';
  error?: TriggerError;
};

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

const sessionsOf = (emu: Emulator): SessionsService =>
  emu.services.sessions ?? precondition('sessions are not available in this emulator, so a trigger cannot run');

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
      triggers.touch(t, {
        status: 'paused',
        paused_reason: { error: outcome.error!, session_id: outcome.session_id! },
        _skips: null,
        _next_fire_ms: null,
      } as Partial<Trigger>);
      // Only a scheduled run's automatic pause sends the webhook; a manual run's does not.
      if (context.type === 'system') emu.webhooks.send('trigger.paused', { id: t.id });
    }
    return runs.insert({ trigger_id: t.id, context, ...outcome });
  };

  /**
   * Assumption: a scheduled occurrence is platform-initiated, so its run has context `system` (the spec
   * names only `manual` and `system`, and clients must accept `system`).
   */
  const scheduler = new TriggerScheduler(emu, triggers, (t) => publicView(run(t, { type: 'system' })));
  emu.onClose(() => scheduler.close());
  registerClockAdmin(emu, triggers, scheduler, (t) => run(t, { type: 'system' }));

  emu.router.post(
    '/v1/triggers',
    (r) => {
      const body = validate(r.body, TRIGGER_SCHEMA);
      if (body.schedule) body.schedule = checkSchedule(body.schedule, 'body.schedule');
      checkTrigger(emu, body);
      const t = triggers.insert({
        resources: [],
        schedule: null,
        metadata: {},
        ...body,
        status: 'active',
        paused_reason: null,
        session_id: null,
        archived_at: null,
        _skips: null,
      } as unknown as Trigger);
      scheduler.plan(t);
      return { status: 201, body: publicView(t) };
    },
    { idempotent: true },
  );

  emu.router.get('/v1/triggers', (r) => {
    const agentId = r.query.get('agent_id');
    return listNewest(triggers, r.query, { timeFilters: true, keep: (t) => agentId === null || t.agent_id === agentId });
  });

  // Assumption (docs/service.md common shapes: archive where archivable; not listed for triggers): an archived trigger
  // never fires again, leaves the list, and refuses updates and runs; `svc apply --prune` archives, never deletes.
  emu.router.post(
    '/v1/triggers/:id/archive',
    (r) => {
      const t = triggers.archive(triggerOf(r));
      t._next_fire_ms = null;
      scheduler.arm();
      return { status: 200, body: publicView(t) };
    },
    { body: 'none' },
  );

  emu.router.get('/v1/triggers/:id', (r) => ({ status: 200, body: publicView(triggerOf(r)) }));

  emu.router.patch('/v1/triggers/:id', (r) => {
    const t = triggerOf(r);
    if (t.archived_at) precondition(`trigger ${t.id} is archived`);
    const body = validate(r.body, TRIGGER_SCHEMA, { patch: true });
    mergeMetadata(body, t.metadata);
    if (body.schedule) body.schedule = checkSchedule(body.schedule, 'body.schedule');
    const next = { ...t, ...body };
    if (t.session_mode === 'reuse_session') {
      const changed = SESSION_SHAPING.filter((k) => k in body && !isDeepStrictEqual(body[k], t[k]));
      if (changed.length)
        precondition(`a reuse_session trigger cannot change ${changed.join(', ')}; switch session_mode to new_session first or create a new trigger`);
    }
    // Updates re-validate the unchanged initial_events too (config rule 11).
    checkTrigger(emu, next);
    const reset = body.session_mode === 'new_session' ? { session_id: null, _skips: null } : {};
    triggers.touch(t, { ...body, ...reset } as Partial<Trigger>);
    scheduler.plan(t);
    return { status: 200, body: publicView(t) };
  });

  emu.router.delete('/v1/triggers/:id', (r) => {
    triggers.delete(triggerOf(r).id);
    scheduler.arm();
    return { status: 204 };
  });

  emu.router.post(
    '/v1/triggers/:id/run',
    (r) => {
      const t = triggerOf(r);
      if (t.archived_at) precondition(`trigger ${t.id} is archived`);
      if (t.status === 'paused') precondition(`trigger ${t.id} is paused; resume it first`);
      return { status: 201, body: publicView(run(t, { type: 'manual' })) };
    },
    { body: 'none', idempotent: true },
  );

  emu.router.get('/v1/triggers/:id/runs', (r) => {
    const t = triggerOf(r);
    return listReply(
      runs
        .values()
        .filter((x) => x.trigger_id === t.id)
        .reverse(),
      r.query,
    );
  });

  emu.router.post(
    '/v1/triggers/:id/pause',
    (r) => {
      const t = triggerOf(r);
      if (t.status !== 'paused') triggers.touch(t, { status: 'paused', paused_reason: null } as Partial<Trigger>);
      scheduler.plan(t);
      return { status: 200, body: publicView(t) };
    },
    { body: 'none' },
  );

  emu.router.post(
    '/v1/triggers/:id/resume',
    (r) => {
      const t = triggerOf(r);
      if (t.archived_at) precondition(`trigger ${t.id} is archived`);
      if (t.status !== 'active') {
        triggers.touch(t, { status: 'active', paused_reason: null, _skips: null } as Partial<Trigger>);
        scheduler.plan(t);
      }
      return { status: 200, body: publicView(t) };
    },
    { body: 'none' },
  );
}

/**
 * Admin paths of the scheduler (loopback only, never under /v1):
 * - `GET /_emulator/clock` → `{now}`, the scheduler clock (ISO time);
 * - `POST /_emulator/clock/advance` `{ms}` → `{now, runs}`: moves the clock forward and fires every occurrence
 *   now due, oldest first (at most 100 per trigger), returning the TriggerRuns made;
 * - `POST /_emulator/triggers/{id}/fire` → 201 TriggerRun: one scheduled occurrence at once, whatever the schedule
 *   (400 failed_precondition_error on a paused trigger).
 * The clock offset is kept in the --state snapshot.
 */
function registerClockAdmin(emu: Emulator, triggers: Collection<Trigger>, scheduler: TriggerScheduler<Trigger>, fire: (t: Trigger) => TriggerRun): void {
  const now = () => new Date(emu.clock.now()).toISOString();
  emu.persist('scheduler_clock', {
    dump: () => ({ offset_ms: emu.clock.offsetMs }),
    load: (d) => {
      emu.clock.offsetMs = Number((d as { offset_ms?: number }).offset_ms ?? 0);
      scheduler.arm();
    },
  });
  emu.admin.get('/_emulator/clock', () => ({ status: 200, body: { now: now() } }));
  emu.admin.post('/_emulator/clock/advance', (r) => {
    const { ms } = validate(r.body ?? {}, { ms: { type: 'integer', required: true, min: 0 } });
    emu.clock.advance(ms);
    return { status: 200, body: { now: now(), runs: scheduler.tick() } };
  });
  emu.admin.post(
    '/_emulator/triggers/:id/fire',
    (r) => {
      const t = triggers.must(r.params.id);
      if (t.status === 'paused') precondition(`trigger ${t.id} is paused; resume it first`);
      const run = fire(t);
      emu.scheduleSave();
      return { status: 201, body: publicView(run) };
    },
    { body: 'none' },
  );
}
