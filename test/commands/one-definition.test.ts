/**
 * One definition for each figure and word (docs/decisions/words.md), checked against one session's history: every
 * view that prints a time to first token, and every view that prints a session's state, for one session each.
 * TTFT is `agent.model_started` to the first fragment of that request, by the service's `processed_at`; an
 * archived session reads `archived` everywhere a state is derived (`sessions get` prints the service's object as it
 * is: its `status` member and `archived_at`).
 */
import { describe, expect, it } from 'vitest';
import { initialState, reduce as liveReduce } from '../../src/live/reducer';
import { headerState, statusText } from '../../src/live/status';
import { nextActivity, type Activity } from '../../src/top/state';
import { sessionRow, sessionStatus } from '../../src/top/rows';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { history, send, waitSession } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 40 });
const run = (args: string[]) => svc(args, { env: emuEnv(t.emu) });

async function session(label: string): Promise<string> {
  const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: `def-${label}`, model: 'scripted-1' } })).body.id as string;
  return (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agent, metadata: { def: label }, title: label } })).body.id as string;
}

describe('time to first token: one figure in every view', () => {
  it('R-EVT-19 sessions stats, stats, the live view (attached after the reply) and svc top agree with the history', async () => {
    const id = await session('ttft');
    await send(t.emu, id, 'Tell me about the weather in some detail.');
    await waitSession(t.emu, id, (s) => s.status === 'idle', 'idle');
    const events = await history(t.emu, `/v1/sessions/${id}`);
    // By hand from the history: the request's start to the event the service marks its first fragment with.
    const started = Date.parse(events.find((e) => e.type === 'agent.model_started').processed_at);
    const first = Date.parse(events.find((e) => e.type === 'agent.message_started' || e.type === 'agent.thinking_started').processed_at);
    const expected = first - started;
    expect(expected).toBeGreaterThan(0);

    const views: Record<string, number | undefined> = {};
    const one = JSON.parse((await run(['sessions', 'stats', id, '-o', 'json'])).stdout);
    views['sessions stats'] = one.ttft_ms?.p50;
    const fleet = JSON.parse((await run(['stats', '-l', 'def=ttft', '-o', 'json', '--no-cache'])).stdout);
    views.stats = (Array.isArray(fleet) ? fleet[0] : fleet).ttft_ms?.p50;
    // The live view attached long after: every event arrives now, at once.
    let live = initialState(id);
    for (const event of events) live = liveReduce(live, { type: 'stream', item: { kind: 'event', event, raw: JSON.stringify(event) }, at: Date.now() });
    views['live view header'] = live.ttftMs;
    views['svc top'] = events.reduce((a: Activity, e) => nextActivity(a, e), { step: 'running' }).ttftMs;
    expect(views).toEqual({ 'sessions stats': expected, stats: expected, 'live view header': expected, 'svc top': expected });
  });
});

describe('an archived session: one word in every view', () => {
  it('sessions list, sessions list -w, sessions wait, sessions export, svc top and the live header all say archived', async () => {
    const id = await session('archived');
    await send(t.emu, id, 'Hello');
    await waitSession(t.emu, id, (s) => s.status === 'idle', 'idle');
    expect((await call(t.emu, 'POST', `/v1/sessions/${id}/archive`)).status).toBe(200);
    const s = (await call(t.emu, 'GET', `/v1/sessions/${id}`)).body;

    const list = await run(['sessions', 'list', '--include-archived', '-l', 'def=archived', '-o', 'table']);
    expect(list.stdout).toMatch(new RegExp(`^${id}\\s+archived\\s+archived\\s`, 'm'));
    const watch = await run(['sessions', 'list', '--include-archived', '-l', 'def=archived', '-w', '--timeout', '1s', '-o', 'table']);
    expect(watch.stdout).toMatch(new RegExp(`${id}.*\\barchived\\b`));
    const wait = await run(['sessions', 'wait', id]);
    expect(wait.code).toBe(11);
    expect(wait.stderr).toContain(`session ${id} was archived`);
    const exported = await run(['sessions', 'export', id, '--format', 'md']);
    expect(exported.stdout).toMatch(/Status\W+archived/);
    expect(sessionStatus(sessionRow(s))).toBe('archived');
    let live = initialState(id);
    live = liveReduce(live, { type: 'session', session: s });
    expect(statusText(live)).toBe('archived');
    expect(headerState(live)?.label).toBe('archived');
  });
});
