// Rules proved here: R-TRIG-8, R-TRIG-12, R-TRIG-14, R-TRIG-16, R-TRIG-17, R-TRIG-18, R-REQ-14 — cron schedules on the
// emulator clock, `system` runs, the automatic pause and its `trigger.paused` webhook.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nextFire, parseCron } from '../../src/emulator/cron';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { call, useEmulator } from '../helpers/emulator';
import { waitSession, waitUntil } from '../helpers/sse';

/** Schedules fire only when a test moves the clock, so nothing fires behind a test's back. */
const t = useEmulator({ modelStepMs: 1, realTimeSchedules: false });
/** The real-time timer, for the one test that needs it. */
const live = useEmulator({ modelStepMs: 1 });

const message = (text: string) => ({ type: 'user.message', data: { content: [{ type: 'text', text }] } });

/** Triggers made by a test, deleted after it so later clock moves do not fire them. */
const made: Array<{ emu: Emulator; id: string }> = [];
afterEach(async () => {
  for (const m of made.splice(0)) await call(m.emu, 'DELETE', `/v1/triggers/${m.id}`);
});

async function newTrigger(emu: Emulator, body: Record<string, unknown> = {}): Promise<any> {
  const agent = await call(emu, 'POST', '/v1/agents', { body: { name: 'cron', model: 'm' } });
  const r = await call(emu, 'POST', '/v1/triggers', {
    body: {
      name: 'every minute',
      agent_id: agent.body.id,
      session_mode: 'new_session',
      initial_events: [message('/echo tick')],
      schedule: { type: 'cron', expression: '* * * * *' },
      ...body,
    },
  });
  expect(r.status).toBe(201);
  made.push({ emu, id: r.body.id });
  return r.body;
}

const advance = async (emu: Emulator, ms: number) => (await call(emu, 'POST', '/_emulator/clock/advance', { body: { ms } })).body;
const runsOf = async (emu: Emulator, id: string) => (await call(emu, 'GET', `/v1/triggers/${id}/runs?page_size=1000`)).body.items;
const webhooks = async (emu: Emulator) => (await call(emu, 'GET', '/_emulator/webhooks')).body.items;
const MINUTE = 60_000;

/** A reuse_session trigger whose every message fails its session, so the later runs skip it (session_failed). */
async function failingTrigger(emu: Emulator): Promise<{ trigger: any; sessionId: string }> {
  const trigger = await newTrigger(emu, { session_mode: 'reuse_session', initial_events: [message('/error model_error')] });
  const fired = await call(emu, 'POST', `/_emulator/triggers/${trigger.id}/fire`);
  expect(fired.body).toMatchObject({ status: 'succeeded', context: { type: 'system' } });
  await waitSession(emu, fired.body.session_id, (s) => s.status === 'idle' && s.stop_reason?.type === 'error', 'the session failed');
  return { trigger, sessionId: fired.body.session_id };
}

describe('emulator: cron schedules', () => {
  it('R-REQ-14 a schedule is a five-field cron expression in an IANA time zone, UTC when omitted', async () => {
    expect((await newTrigger(t.emu)).schedule).toEqual({ type: 'cron', expression: '* * * * *', timezone: 'UTC' });
    const zoned = await newTrigger(t.emu, { schedule: { type: 'cron', expression: '0 9 * * MON-FRI', timezone: 'Europe/Paris' } });
    expect(zoned.schedule.timezone).toBe('Europe/Paris');
    const agentId = zoned.agent_id;
    const bad = async (schedule: Record<string, unknown>) =>
      (await call(t.emu, 'POST', '/v1/triggers', { body: { name: 'x', agent_id: agentId, session_mode: 'new_session', initial_events: [], schedule } })).body
        .error;
    expect(await bad({ type: 'cron', expression: '61 * * * *' })).toMatchObject({ type: 'invalid_parameter_error', param: 'body.schedule.expression' });
    expect(await bad({ type: 'cron', expression: '* * * *' })).toMatchObject({ param: 'body.schedule.expression' });
    expect(await bad({ type: 'cron', expression: '0 0 31 2 *' })).toMatchObject({ param: 'body.schedule.expression' });
    expect(await bad({ type: 'cron', expression: '* * * * *', timezone: 'Mars/Olympus' })).toMatchObject({ param: 'body.schedule.timezone' });
    expect(await bad({ type: 'interval', expression: '* * * * *' })).toMatchObject({ param: 'body.schedule.type' });
  });

  it('R-TRIG-8 advancing the clock fires each due occurrence as a system run that starts a session', async () => {
    const tr = await newTrigger(t.emu);
    const moved = await advance(t.emu, 3 * MINUTE);
    const mine = moved.runs.filter((r: any) => r.trigger_id === tr.id);
    expect(mine).toHaveLength(3);
    for (const r of mine) expect(r).toMatchObject({ context: { type: 'system' }, status: 'succeeded', session_id: expect.any(String) });
    expect(new Set(mine.map((r: any) => r.session_id)).size).toBe(3);
    expect((await runsOf(t.emu, tr.id)).map((r: any) => r.id)).toEqual(mine.map((r: any) => r.id).reverse());
    const s = await waitSession(t.emu, mine[0].session_id, (x) => x.status === 'idle' && x.stop_reason?.type === 'end_turn', 'the run session replied');
    expect(s.agent_id).toBe(tr.agent_id);
  });

  it('R-TRIG-8 a paused trigger does not fire; resuming plans from now without catching up', async () => {
    const tr = await newTrigger(t.emu);
    await call(t.emu, 'POST', `/v1/triggers/${tr.id}/pause`);
    await advance(t.emu, 5 * MINUTE);
    expect(await runsOf(t.emu, tr.id)).toEqual([]);
    await call(t.emu, 'POST', `/v1/triggers/${tr.id}/resume`);
    expect((await advance(t.emu, 0)).runs.filter((r: any) => r.trigger_id === tr.id)).toEqual([]);
    await advance(t.emu, MINUTE);
    expect(await runsOf(t.emu, tr.id)).toHaveLength(1);
    expect((await call(t.emu, 'POST', `/v1/triggers/${tr.id}/pause`)).body.status).toBe('paused');
    expect((await call(t.emu, 'POST', `/_emulator/triggers/${tr.id}/fire`)).body.error.type).toBe('failed_precondition_error');
  });

  it('R-TRIG-8 removing the schedule stops the firing; manual runs keep context manual', async () => {
    const tr = await newTrigger(t.emu);
    await call(t.emu, 'PATCH', `/v1/triggers/${tr.id}`, { body: { schedule: null } });
    await advance(t.emu, 2 * MINUTE);
    expect(await runsOf(t.emu, tr.id)).toEqual([]);
    expect((await call(t.emu, 'POST', `/v1/triggers/${tr.id}/run`)).body.context).toEqual({ type: 'manual' });
  });

  it('R-TRIG-8 with the real-time timer an occurrence fires when its minute comes', async () => {
    const clock = async () => Date.parse((await call(live.emu, 'GET', '/_emulator/clock')).body.now);
    // Within 3 s of a minute, let it pass before the trigger exists: its timer would fire that minute on its own,
    // while the test moves the clock towards the next one.
    const early = await clock();
    const near = Math.ceil((early + 1) / MINUTE) * MINUTE - early;
    if (near < 3000) await new Promise((r) => setTimeout(r, near + 100));
    const tr = await newTrigger(live.emu);
    const now = await clock();
    // Move the clock to 2 s before the next minute: nothing is due yet, the timer fires the rest in real time.
    // (A smaller margin lost the race to a loaded machine: the minute passed while the advance was on its way.)
    // Within 3 s of the next minute (an advance of under 1 s, or a negative one), the minute after it.
    let minute = Math.ceil((now + 1) / MINUTE) * MINUTE;
    if (minute - now < 3000) minute += MINUTE;
    const moved = await advance(live.emu, minute - now - 2000);
    expect(moved, JSON.stringify(moved)).toMatchObject({ runs: [] });
    const runs = await waitUntil(async () => {
      const r = await runsOf(live.emu, tr.id);
      return r.length ? r : undefined;
    }, 'a run fired by the timer');
    expect(runs[0]).toMatchObject({ context: { type: 'system' }, status: 'succeeded' });
  });
});

describe('emulator: automatic pause and the trigger.paused webhook', () => {
  it('R-TRIG-12 R-TRIG-14 R-TRIG-16 R-TRIG-17 three scheduled skips of a failed session pause the trigger and send trigger.paused', async () => {
    const { trigger, sessionId } = await failingTrigger(t.emu);
    const before = (await webhooks(t.emu)).length;
    const moved = await advance(t.emu, 5 * MINUTE);
    const mine = moved.runs.filter((r: any) => r.trigger_id === trigger.id);
    // The pause stops the firing: three skips, then nothing for the remaining occurrences.
    expect(mine.map((r: any) => r.status)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(mine[0]).toMatchObject({ context: { type: 'system' }, session_id: sessionId, error: { type: 'session_failed' } });
    const paused = (await call(t.emu, 'GET', `/v1/triggers/${trigger.id}`)).body;
    expect(paused).toMatchObject({ status: 'paused', paused_reason: { session_id: sessionId, error: { type: 'session_failed' } } });
    const sent = (await webhooks(t.emu)).slice(before);
    expect(sent).toEqual([{ id: expect.any(String), type: 'trigger.paused', created_at: expect.any(String), data: { id: trigger.id } }]);
  });

  it('R-TRIG-18 ordinary skips, a pause reached by manual runs and a manual pause send no webhook', async () => {
    const { trigger } = await failingTrigger(t.emu);
    const before = (await webhooks(t.emu)).length;
    await call(t.emu, 'POST', `/_emulator/triggers/${trigger.id}/fire`);
    await call(t.emu, 'POST', `/_emulator/triggers/${trigger.id}/fire`);
    expect((await call(t.emu, 'GET', `/v1/triggers/${trigger.id}`)).body.status).toBe('active');
    const third = await call(t.emu, 'POST', `/v1/triggers/${trigger.id}/run`);
    expect(third.body).toMatchObject({ context: { type: 'manual' }, status: 'skipped' });
    expect((await call(t.emu, 'GET', `/v1/triggers/${trigger.id}`)).body.status).toBe('paused');
    const other = await newTrigger(t.emu);
    await call(t.emu, 'POST', `/v1/triggers/${other.id}/pause`);
    expect((await webhooks(t.emu)).slice(before)).toEqual([]);
  });

  it('R-TRIG-16 with webhookUrl the webhook is POSTed there as JSON', async () => {
    const received: any[] = [];
    const sink = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ type: req.headers['content-type'], body: JSON.parse(body) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
    const emu = await startEmulator({
      port: 0,
      modelStepMs: 1,
      realTimeSchedules: false,
      webhookUrl: `http://127.0.0.1:${(sink.address() as AddressInfo).port}/hooks`,
    });
    try {
      const { trigger } = await failingTrigger(emu);
      await advance(emu, 3 * MINUTE);
      const hook = await waitUntil(() => received[0], 'a delivered webhook');
      expect(hook).toEqual({
        type: 'application/json',
        body: { id: expect.any(String), type: 'trigger.paused', created_at: expect.any(String), data: { id: trigger.id } },
      });
      await waitUntil(async () => (await call(emu, 'GET', '/_emulator/stats')).body.webhooks_delivered === 1, 'the delivery counted');
    } finally {
      made.splice(0);
      await emu.close();
      sink.close();
    }
  });
});

describe('emulator: cron evaluation', () => {
  const at = (iso: string) => Date.parse(iso);
  const next = (expr: string, tz: string, from: string, n = 1): string[] => {
    const out: string[] = [];
    let ms = at(from);
    for (let i = 0; i < n; i++) {
      ms = nextFire(parseCron(expr), tz, ms)!;
      out.push(new Date(ms).toISOString());
    }
    return out;
  };

  it('steps, names and time zones', () => {
    expect(next('*/15 * * * *', 'UTC', '2026-03-07T12:34:56Z', 2)).toEqual(['2026-03-07T12:45:00.000Z', '2026-03-07T13:00:00.000Z']);
    // 09:00 in New York on weekdays: Monday 9 March 2026 is after the switch to daylight saving time.
    expect(next('0 9 * * MON-FRI', 'America/New_York', '2026-03-06T15:00:00Z', 2)).toEqual(['2026-03-09T13:00:00.000Z', '2026-03-10T13:00:00.000Z']);
    expect(next('5 4 * jan sun', 'Asia/Kolkata', '2026-03-07T00:00:00Z')).toEqual(['2027-01-02T22:35:00.000Z']);
  });

  it('day-of-month and day-of-week both restricted: either one fires (classic cron)', () => {
    expect(next('0 12 1,15 * 0', 'UTC', '2026-03-07T00:00:00Z', 3)).toEqual([
      '2026-03-08T12:00:00.000Z',
      '2026-03-15T12:00:00.000Z',
      '2026-03-22T12:00:00.000Z',
    ]);
  });

  it('a midnight after a 23-hour day is not skipped, and 29 February comes every four years', () => {
    expect(next('0 0 * * *', 'America/New_York', '2026-03-07T12:00:00Z', 2)).toEqual(['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
    expect(next('0 0 29 2 *', 'UTC', '2026-03-07T00:00:00Z', 2)).toEqual(['2028-02-29T00:00:00.000Z', '2032-02-29T00:00:00.000Z']);
  });
});
