// svc sessions explain: each cause it names, from a real or hand-built history on the emulator, and many grouped.
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, type SvcOptions } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { agentSession, send, waitSession } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 2 });
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, o.env) });

let n = 0;
/** A session of a fresh agent, labelled `batch=label`. */
const session = async (label = `solo${++n}`, extra: Record<string, unknown> = {}) =>
  (await agentSession(t.emu, { name: `agent-${label}` }, { metadata: { batch: label }, title: `${label} ${++n}`, ...extra })).id as string;

const failed = (s: any) => s.status === 'idle' && s.stop_reason?.type === 'error';
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** Appends hand-built events (and changes to the session) through the emulator's admin path. */
async function handBuilt(sid: string, items: unknown[], session: Record<string, unknown> = {}): Promise<void> {
  const r = await call(t.emu, 'POST', `/_emulator/sessions/${sid}/history`, { body: { items, session } });
  expect(r.status).toBe(204);
}

async function explainOne(sid: string, o: SvcOptions = {}): Promise<any> {
  const r = await run(['sessions', 'explain', sid, '-o', 'json'], o);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe('svc sessions explain: one session, each cause', () => {
  it('R-ERR-24 session_error: the turn ended in a spec error type: its advice, and the rerun that moves it on; the text form ends with the command', async () => {
    const sid = await session();
    await send(t.emu, sid, '/error engine_overloaded');
    await waitSession(t.emu, sid, failed);
    const e = await explainOne(sid);
    expect(e.state).toBe('failed (engine_overloaded)');
    expect(e.causes).toHaveLength(1);
    expect(e.causes[0]).toMatchObject({
      code: 'session_error',
      facts: { error_type: 'engine_overloaded' },
      advice: 'Retry later.',
      commands: [`svc sessions rerun ${sid}`],
    });
    const text = await run(['sessions', 'explain', sid, '-o', 'table']);
    expect(text.stdout).toContain(`${sid}  failed (engine_overloaded)`);
    expect(text.stdout).toContain('why (session_error): the turn ended in session.error engine_overloaded');
    expect(text.stdout).toContain('advice: Retry later.');
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe(`  next: svc sessions rerun ${sid}`);
  });

  it('R-ERR-23 session_error: an error type the spec does not list is reported under its own name with the facts and no advice', async () => {
    const sid = await session();
    await handBuilt(
      sid,
      [
        { type: 'user.message', processed_at: ago(60_000), data: { content: [{ type: 'text', text: 'hi' }] } },
        { type: 'session.error', processed_at: ago(50_000), data: { error_type: 'gpu_on_fire', message: 'the rack is warm' } },
        { type: 'session.status', processed_at: ago(50_000), data: { status: 'idle', stop_reason: { type: 'error' } } },
      ],
      { status: 'idle', stop_reason: { type: 'error' } },
    );
    const c = (await explainOne(sid)).causes[0];
    expect(c).toMatchObject({ code: 'session_error', facts: { error_type: 'gpu_on_fire', message: 'the rack is warm', listed_in_spec: false } });
    expect(c.advice).toBeUndefined();
    expect(c.commands).toEqual([`svc sessions events ${sid}`]);
  });

  it('session_error: the error of an earlier turn does not explain a later clean turn (only the last turn counts)', async () => {
    const sid = await session();
    await send(t.emu, sid, '/error model_error');
    await waitSession(t.emu, sid, failed);
    await send(t.emu, sid, 'again');
    await waitSession(t.emu, sid, (s) => s.stop_reason?.type === 'end_turn');
    expect((await explainOne(sid)).causes[0].code).toBe('idle');
  });

  it('stop_unfinished: a stop the real service may answer (refusal) with its recovery', async () => {
    const sid = await session();
    await handBuilt(sid, [], { status: 'idle', stop_reason: { type: 'refusal' } });
    const c = (await explainOne(sid)).causes[0];
    expect(c).toMatchObject({ code: 'stop_unfinished', facts: { stop_reason: 'refusal' }, commands: [`svc sessions rerun ${sid}`] });
    expect(c.advice).toMatch(/rephrase/);
  });

  it('awaiting_confirmation: the tool, its input on one line, how long it has waited, the thread, and the confirm commands', async () => {
    const sid = await session();
    await send(t.emu, sid, '/confirm bash {"command":"rm -rf build"}');
    const s = await waitSession(t.emu, sid, (x) => x.requires_action === true);
    const eid = s.stop_reason.event_ids[0];
    const c = (await explainOne(sid, { now: () => Date.now() + 90_000 })).causes[0];
    expect(c.code).toBe('awaiting_confirmation');
    expect(c.facts.calls).toHaveLength(1);
    expect(c.facts.calls[0]).toMatchObject({ event_id: eid, tool: 'bash', input: '{"command":"rm -rf build"}' });
    expect(c.facts.calls[0].thread_id).toBeUndefined();
    expect(c.facts.calls[0].waited_ms).toBeGreaterThanOrEqual(90_000);
    expect(c.summary).toMatch(/bash \{"command":"rm -rf build"\} \(waiting 9\ds, main thread\)/);
    expect(c.commands[0]).toBe(`svc sessions confirm ${sid} ${eid} --allow`);
  });

  it('awaiting_tool_result: a custom tool call, and a call on a child thread names its thread', async () => {
    const sid = await session();
    await send(t.emu, sid, '/custom lookup {"q":"invoice 42"}');
    const s = await waitSession(t.emu, sid, (x) => x.requires_action === true);
    const c = (await explainOne(sid)).causes[0];
    expect(c).toMatchObject({
      code: 'awaiting_tool_result',
      facts: { calls: [{ event_id: s.stop_reason.event_ids[0], tool: 'lookup', input: '{"q":"invoice 42"}' }] },
    });
    expect(c.commands).toEqual([`svc sessions tool-result ${sid} ${s.stop_reason.event_ids[0]} --text "…"`]);

    const child = await session();
    await handBuilt(
      child,
      [
        {
          id: 'sevt_childcall',
          type: 'agent.tool_use',
          session_thread_id: 'thrd_child1',
          processed_at: ago(120_000),
          data: { name: 'write', input: { path: 'a' }, permission: 'ask' },
        },
      ],
      { status: 'idle', requires_action: true, stop_reason: { type: 'requires_action', event_ids: ['sevt_childcall'] } },
    );
    const w = (await explainOne(child)).causes[0];
    expect(w).toMatchObject({ code: 'awaiting_confirmation', facts: { calls: [{ tool: 'write', thread_id: 'thrd_child1' }] } });
    expect(w.summary).toContain('thread thrd_child1');
  });

  it('awaiting_reply: an awaited call the recent history does not show', async () => {
    const sid = await session();
    await handBuilt(sid, [], { status: 'idle', requires_action: true, stop_reason: { type: 'requires_action', event_ids: ['sevt_gone'] } });
    expect((await explainOne(sid)).causes[0]).toMatchObject({ code: 'awaiting_reply', facts: { event_ids: ['sevt_gone'] } });
  });

  it('interrupted_input_held and interrupted: input held behind the interrupt, and the continue that runs it', async () => {
    const sid = await session();
    await send(t.emu, sid, '/slow 200 a slow answer');
    await waitSession(t.emu, sid, (s) => s.status === 'running');
    expect((await call(t.emu, 'POST', `/v1/sessions/${sid}/events`, { body: { events: [{ type: 'user.interrupt', data: {} }] } })).status).toBe(202);
    await waitSession(t.emu, sid, (s) => s.interrupted === true && s.status === 'idle' && !s.stopping);
    expect((await explainOne(sid)).causes[0]).toMatchObject({ code: 'interrupted', commands: [`svc sessions continue ${sid}`] });
    await send(t.emu, sid, 'held message');
    const c = (await explainOne(sid)).causes[0];
    expect(c).toMatchObject({ code: 'interrupted_input_held', facts: { pending_inputs: 1 }, commands: [`svc sessions continue ${sid}`] });
    expect(c.summary).toMatch(/^interrupted with 1 input held behind the interrupt/);
  });

  it('rescheduling: since when, from the status event', async () => {
    const sid = await session();
    await handBuilt(sid, [{ type: 'session.status', processed_at: ago(5 * 60_000 + 5000), data: { status: 'rescheduling' } }], { status: 'rescheduling' });
    const c = (await explainOne(sid)).causes[0];
    expect(c).toMatchObject({ code: 'rescheduling', commands: [`svc sessions wait ${sid} --timeout 10m`] });
    expect(c.summary).toBe('the platform is rescheduling its turn (since 5m ago)');
  });

  it('running, idle and archived', async () => {
    const busy = await session();
    await send(t.emu, busy, '/slow 300');
    await waitSession(t.emu, busy, (s) => s.status === 'running');
    expect((await explainOne(busy)).causes[0]).toMatchObject({ code: 'running', commands: [`svc sessions wait ${busy}`, `svc sessions tail ${busy}`] });
    const quiet = await session();
    expect((await explainOne(quiet)).causes[0].code).toBe('idle');
    expect((await call(t.emu, 'POST', `/v1/sessions/${quiet}/archive`)).status).toBe(200);
    expect((await explainOne(quiet)).causes[0]).toMatchObject({ code: 'archived', commands: [`svc sessions rerun ${quiet}`] });
  });

  it('unknown: a status svc does not know is the raw facts, never a guess', async () => {
    const sid = await session();
    await handBuilt(sid, [], { status: 'hibernating' });
    const e = await explainOne(sid);
    expect(e.state).toBe('hibernating');
    expect(e.causes[0]).toMatchObject({
      code: 'unknown',
      facts: { status: 'hibernating' },
      commands: [`svc sessions get ${sid} -o json`, `svc sessions events ${sid}`],
    });
  });
});

describe('svc sessions explain: many sessions grouped by cause', () => {
  it('largest group first, each with its count, an example and the one bulk command for the selection given; --error-type narrows', async () => {
    const label = 'grouped';
    const ids: Record<string, string[]> = { overloaded: [], unavailable: [], confirm: [], idle: [] };
    for (let i = 0; i < 4; i++) ids.overloaded.push(await session(label));
    for (let i = 0; i < 2; i++) ids.unavailable.push(await session(label));
    ids.confirm.push(await session(label));
    ids.idle.push(await session(label));
    for (const sid of ids.overloaded) await send(t.emu, sid, '/error engine_overloaded');
    for (const sid of ids.unavailable) await send(t.emu, sid, '/error model_unavailable');
    await send(t.emu, ids.confirm[0], '/confirm bash {"command":"ls"}');
    for (const sid of [...ids.overloaded, ...ids.unavailable]) await waitSession(t.emu, sid, failed);
    await waitSession(t.emu, ids.confirm[0], (s) => s.requires_action === true);

    const r = await run(['sessions', 'explain', '-l', `batch=${label}`, '--newer-than', '1h', '-o', 'json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.total).toBe(8);
    expect(out.groups.map((g: any) => [g.code, g.error_type, g.count])).toEqual([
      ['session_error', 'engine_overloaded', 4],
      ['session_error', 'model_unavailable', 2],
      ['awaiting_confirmation', undefined, 1],
      ['idle', undefined, 1],
    ]);
    const [over, unav, wait, idle] = out.groups;
    expect(over.command).toBe(`svc sessions rerun --status failed --error-type engine_overloaded --newer-than 1h -l batch=${label}`);
    expect(over.advice).toBe('Retry later.');
    expect(ids.overloaded).toContain(over.example.id);
    expect(over.session_ids.sort()).toEqual([...ids.overloaded].sort());
    expect(unav.command).toBe(`svc sessions rerun --status failed --error-type model_unavailable --newer-than 1h -l batch=${label} --latest`);
    expect(wait.command).toBe(`svc top --status waiting --newer-than 1h -l batch=${label}`);
    expect(idle.command).toBeUndefined();

    const text = await run(['sessions', 'explain', '-l', `batch=${label}`, '-o', 'table']);
    expect(text.stdout.split('\n').slice(0, 3)).toEqual(['8 sessions, 4 causes', '', '    4  session_error engine_overloaded']);
    expect(text.stdout).toContain(`       run: svc sessions rerun --status failed --error-type engine_overloaded -l batch=${label}\n`);

    const narrowed = JSON.parse((await run(['sessions', 'explain', '-l', `batch=${label}`, '--error-type', 'model_unavailable', '-o', 'json'])).stdout);
    expect(narrowed.sessions.map((s: any) => s.id).sort()).toEqual([...ids.unavailable].sort());

    // Given by ID, a group's command names the IDs.
    const byId = await run(['sessions', 'explain', '-', '-o', 'json'], { stdin: ids.overloaded.join('\n') });
    expect(JSON.parse(byId.stdout).groups[0].command).toBe(`svc sessions rerun ${ids.overloaded.join(' ')}`);
    // -q: the IDs explained, for a pipe.
    expect((await run(['sessions', 'explain', '--error-type', 'model_unavailable', '-l', `batch=${label}`, '-q'])).stdout.trim().split('\n').sort()).toEqual(
      [...ids.unavailable].sort(),
    );
  });

  it('reads only what each cause needs: one list page, one history page per failed session, nothing per idle one', async () => {
    const label = 'counted';
    const bad = [await session(label), await session(label)];
    for (let i = 0; i < 3; i++) await session(label);
    for (const sid of bad) await send(t.emu, sid, '/error timeout');
    for (const sid of bad) await waitSession(t.emu, sid, failed);
    const before = await requestCount(t.emu);
    const r = await run(['sessions', 'explain', '-l', `batch=${label}`, '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).total).toBe(5);
    // 1 session list page (labels are matched client-side) + 2 history pages, and the agent list for nothing: 3.
    expect((await requestCount(t.emu)) - before).toBe(3);
  });

  it('refuses bad input with exit 2 before any request', async () => {
    const before = await requestCount(t.emu);
    expect((await run(['sessions', 'explain'])).code).toBe(2);
    expect((await run(['sessions', 'explain', 'sesn_1', '--error-type', 'x'])).code).toBe(2);
    expect((await run(['sessions', 'explain', '--error-type', ''])).code).toBe(2);
    expect((await run(['sessions', 'explain', '--status', 'faild'])).code).toBe(2);
    expect(await requestCount(t.emu)).toBe(before);
  });
});
