import { describe, expect, it } from 'vitest';
import { emuEnv, svc, type SvcOptions } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { agent, append, at, busyHistory, ev, session } from './history';

const t = useEmulator({ modelStepMs: 5 });
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, o.env) });
const json = async (args: string[], o: SvcOptions = {}) => {
  const r = await run([...args, '-o', 'json'], o);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

describe('svc sessions stats', () => {
  it('counts every figure of a hand-built history: turns, requests, tools, errors, interrupts, waits, time to first token (R-EVT-16, R-EVT-19)', async () => {
    const s = await session(t.emu, await agent(t.emu, 'stats-one'));
    await append(t.emu, s, busyHistory(), { status: 'idle', stop_reason: { type: 'interrupted' }, interrupted: true });
    expect(await json(['sessions', 'stats', s])).toEqual({
      session_id: s,
      turns: 4,
      model_requests: 4,
      tool_calls: 6,
      tool_errors: 2,
      tools: {
        bash: { calls: 2, errors: 1, duration_ms: { p50: 100, p95: 300 } },
        deploy: { calls: 1, errors: 0, duration_ms: { p50: 1000, p95: 1000 } },
        grep: { calls: 1, errors: 0, duration_ms: null },
        lookup: { calls: 1, errors: 1, duration_ms: null },
        search: { calls: 1, errors: 0, duration_ms: { p50: 200, p95: 200 } },
      },
      errors: { model_error: 1, timeout: 1 },
      interrupts: 1,
      human_waits: { count: 2, seconds: 7 },
      running_seconds: 18,
      turn_seconds: { p50: 3, p95: 8 },
      ttft_ms: { p50: 400, p95: 500 },
      first_event_at: at(0),
      last_event_at: at(110),
    });
  });

  it('--thread narrows to one thread: the coordinator leaves out the child thread (R-HIST-1)', async () => {
    const s = await session(t.emu, await agent(t.emu, 'stats-thread'));
    await append(t.emu, s, busyHistory());
    const threads = await call(t.emu, 'GET', `/v1/sessions/${s}/threads`);
    const coordinator = threads.body.items.find((x: { parent_thread_id: unknown }) => x.parent_thread_id === null).id;
    const f = await json(['sessions', 'stats', s, '--thread', coordinator]);
    expect(f.thread_id).toBe(coordinator);
    expect(f.model_requests).toBe(3);
    expect(f.tool_calls).toBe(5);
    expect(f.tools.grep).toBeUndefined();
    expect(f.ttft_ms).toEqual({ p50: 200, p95: 500 });
    expect(f.turns).toBe(4);
  });

  it('reads a history longer than one page, page by page (R-HIST-2)', async () => {
    const s = await session(t.emu, await agent(t.emu, 'stats-long'));
    const items = [ev(0, 'session.status', { data: { status: 'running' } })];
    for (let i = 0; i < 1200; i++) items.push(ev(1 + i, 'agent.model_started', { data: { model: 'm' } }), ev(1.25 + i, 'agent.message_started'));
    items.push(ev(2000, 'session.status', { data: { status: 'idle', stop_reason: { type: 'end_turn' } } }));
    await append(t.emu, s, items);
    const before = await requestCount(t.emu);
    const f = await json(['sessions', 'stats', s, '--no-cache']);
    // The session, then 2403 events in pages of 1000.
    expect((await requestCount(t.emu)) - before).toBe(1 + 3);
    expect(f.model_requests).toBe(1200);
    // Past 256 values the sample keeps buckets: within 1 %.
    expect(Math.abs(f.ttft_ms.p50 - 250)).toBeLessThanOrEqual(2.5);
    expect(f.ttft_ms.p95).toBe(f.ttft_ms.p50);
    expect(f.running_seconds).toBe(2000);
    expect(f.turns).toBe(1);
  });

  it('a session without streamed fragments has no time to first token, and a new one has no figures', async () => {
    const a = await agent(t.emu, 'stats-quiet');
    const s = await session(t.emu, a);
    await append(t.emu, s, [
      ev(0, 'session.status', { data: { status: 'running' } }),
      ev(1, 'agent.model_started'),
      ev(2, 'agent.message'),
      ev(3, 'session.status', { data: { status: 'idle' } }),
    ]);
    const f = await json(['sessions', 'stats', s]);
    expect(f.ttft_ms).toBeNull();
    expect(f.model_requests).toBe(1);
    const empty = await json(['sessions', 'stats', await session(t.emu, a)]);
    expect(empty).toMatchObject({ turns: 0, tools: {}, errors: {}, ttft_ms: null, turn_seconds: null, first_event_at: null, last_event_at: null });
  });

  it('a session the emulator really ran: a confirmation waited on, an error, streamed replies', async () => {
    const { send, waitSession } = await import('../helpers/sse');
    const s = await session(t.emu, await agent(t.emu, 'stats-live'));
    await send(t.emu, s, '/confirm bash {"command":"ls"}');
    await waitSession(t.emu, s, (x) => x.requires_action === true, 'waiting on a confirmation');
    const hist = await call(t.emu, 'GET', `/v1/sessions/${s}/events`);
    const use = hist.body.items.find((e: { type: string }) => e.type === 'agent.tool_use');
    expect(
      (
        await call(t.emu, 'POST', `/v1/sessions/${s}/events`, {
          body: { events: [{ type: 'user.tool_confirmation', data: { event_id: use.id, result: 'deny' } }] },
        })
      ).status,
    ).toBe(202);
    await waitSession(t.emu, s, (x) => x.status === 'idle' && x.stop_reason?.type === 'end_turn', 'done');
    await send(t.emu, s, '/error rate_limited');
    await waitSession(t.emu, s, (x) => x.stop_reason?.type === 'error', 'failed');
    const f = await json(['sessions', 'stats', s]);
    expect(f).toMatchObject({ turns: 3, tool_calls: 1, tool_errors: 1, errors: { rate_limited: 1 }, human_waits: { count: 1 } });
    expect(f.tools.bash).toMatchObject({ calls: 1, errors: 1, duration_ms: null });
    expect(f.ttft_ms).not.toBeNull();
    expect(f.human_waits.seconds).toBeGreaterThanOrEqual(0);
  });

  it('on a terminal: a record, the tools table and a bar per tool duration; piped -o table: no pictures', async () => {
    const s = await session(t.emu, await agent(t.emu, 'stats-tty'));
    await append(t.emu, s, busyHistory());
    const tty = await run(['sessions', 'stats', s], { stdoutTTY: true, columns: 120 });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(/^session_id\s+sesn_/m);
    expect(tty.stdout).toMatch(/^ttft_ms\s+p50 400 ms, p95 500 ms$/m);
    expect(tty.stdout).toMatch(/^TOOL\s+CALLS\s+ERRORS\s+P50_MS\s+P95_MS$/m);
    expect(tty.stdout).toContain('tool durations');
    expect(tty.stdout).toMatch(/^deploy\s+█+\s+1000 ms \(p95 1000 ms\)$/m);
    const piped = await run(['sessions', 'stats', s, '-o', 'table']);
    expect(piped.stdout).toMatch(/^bash\s+2\s+1\s+100\s+300$/m);
    expect(piped.stdout).not.toContain('tool durations');
  });

  it('an unknown session is exit 6; an empty --thread is exit 2 with nothing sent', async () => {
    expect((await run(['sessions', 'stats', 'sesn_nope'])).code).toBe(6);
    const before = await requestCount(t.emu);
    const r = await run(['sessions', 'stats', 'sesn_x', '--thread', ' ']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--thread takes a thread ID/);
    expect(await requestCount(t.emu)).toBe(before);
  });
});
