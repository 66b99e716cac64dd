import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Capture, emuEnv, svc, type SvcOptions } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { agent, append, busyHistory, ev, session } from './history';

const t = useEmulator({ modelStepMs: 5 });
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, o.env) });
const json = async (args: string[], o: SvcOptions = {}) => {
  const r = await run([...args, '-o', 'json'], o);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};
/** Emulator requests a command made. */
const requests = async (f: () => Promise<unknown>) => {
  const before = await requestCount(t.emu);
  await f();
  return (await requestCount(t.emu)) - before;
};

let a: string;
let b: string;
const ids: string[] = [];
beforeAll(async () => {
  a = await agent(t.emu, 'fleet-a');
  b = await agent(t.emu, 'fleet-b');
  ids.push(await session(t.emu, a, { set: 'f1', team: 'infra' }));
  await append(t.emu, ids[0], busyHistory(), { stop_reason: { type: 'error' } });
  ids.push(await session(t.emu, a, { set: 'f1', team: 'web' }));
  await append(t.emu, ids[1], [
    ev(0, 'session.status', { data: { status: 'running' } }),
    ev(1, 'agent.model_started'),
    ev(1.1, 'agent.message_started'),
    ev(10, 'session.status', { data: { status: 'idle', stop_reason: { type: 'end_turn' } } }),
  ]);
  ids.push(await session(t.emu, b, { set: 'f1' }));
  await append(t.emu, ids[2], [
    ev(86_400, 'session.status', { data: { status: 'running' } }),
    ev(86_401, 'agent.tool_use', { id: 'call_b', data: { name: 'bash', input: {}, permission: 'allow' } }),
    ev(86_404, 'session.status', { data: { status: 'idle', stop_reason: { type: 'end_turn' } } }),
  ]);
});

describe('svc stats', () => {
  it('sums the selected sessions: sessions, failed (the derived state), figures and percentiles over all of them', async () => {
    const [all] = await json(['stats', '-l', 'set=f1']);
    expect(all).toMatchObject({
      group: 'all',
      sessions: 3,
      failed: 1,
      turns: 6,
      model_requests: 5,
      tool_calls: 7,
      tool_errors: 2,
      errors: { model_error: 1, timeout: 1 },
      interrupts: 1,
      human_waits: { count: 2, seconds: 7 },
      running_seconds: 32,
      turn_seconds: { p50: 4, p95: 10 },
      ttft_ms: { p50: 200, p95: 500 },
      turns_per_day: { '2026-03-02': 5, '2026-03-03': 1 },
    });
    expect(all.tools.bash).toEqual({ calls: 3, errors: 1, duration_ms: { p50: 100, p95: 300 } });
  });

  it('--by agent, status, label:KEY and day group the sessions', async () => {
    const byAgent = await json(['stats', '-l', 'set=f1', '--by', 'agent']);
    expect(byAgent.map((g: any) => [g.group, g.sessions, g.failed, g.turns])).toEqual(
      [
        [a, 2, 1, 5],
        [b, 1, 0, 1],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    const byStatus = await json(['stats', '-l', 'set=f1', '--by', 'status']);
    expect(byStatus.map((g: any) => [g.group, g.sessions, g.failed])).toEqual([
      ['failed', 1, 1],
      ['idle', 2, 0],
    ]);
    const byTeam = await json(['stats', '-l', 'set=f1', '--by', 'label:team']);
    expect(byTeam.map((g: any) => [g.group, g.sessions])).toEqual([
      ['(none)', 1],
      ['infra', 1],
      ['web', 1],
    ]);
    const byDay = await json(['stats', '-l', 'set=f1', '--by', 'day']);
    expect(byDay.map((g: any) => [g.group, g.sessions])).toEqual([[new Date().toISOString().slice(0, 10), 3]]);
  });

  it('the selectors narrow the fleet (--agent by name, --status failed)', async () => {
    expect((await json(['stats', '-l', 'set=f1', '--agent', 'fleet-b']))[0]).toMatchObject({ sessions: 1, turns: 1 });
    expect((await json(['stats', '-l', 'set=f1,team=infra']))[0]).toMatchObject({ sessions: 1, failed: 1, turns: 4 });
    expect(await json(['stats', '-l', 'set=nothing'])).toEqual([]);
  });

  it('a second run reads no history of a settled session that has not changed; a changed one is read again', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'svc-stats-cache-'));
    const env = { XDG_CACHE_HOME: cache };
    // The list (one page), then three histories.
    expect(await requests(() => json(['stats', '-l', 'set=f1'], { env }))).toBe(4);
    expect(await requests(() => json(['stats', '-l', 'set=f1'], { env }))).toBe(1);
    const [cached] = await json(['stats', '-l', 'set=f1'], { env });
    expect(cached).toMatchObject({ sessions: 3, turns: 6, ttft_ms: { p50: 200, p95: 500 } });
    await append(t.emu, ids[1], [ev(20, 'session.status', { data: { status: 'running' } }), ev(22, 'session.status', { data: { status: 'idle' } })]);
    expect(await requests(() => json(['stats', '-l', 'set=f1'], { env }))).toBe(2);
    expect((await json(['stats', '-l', 'set=f1'], { env }))[0].turns).toBe(7);
    expect(await requests(() => json(['stats', '-l', 'set=f1', '--no-cache'], { env }))).toBe(4);
    // sessions stats shares the entries.
    expect(await requests(() => json(['sessions', 'stats', ids[0]], { env }))).toBe(1);
    const folder = join(cache, 'svc', 'stats');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const files = readdirSync(folder);
    expect(files.length).toBe(3);
    for (const f of files) expect(statSync(join(folder, f)).mode & 0o777).toBe(0o600);
  });

  it('a running session is read every time, never cached', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'svc-stats-cache-'));
    const s = await session(t.emu, a, { set: 'f2' });
    await append(t.emu, s, [ev(0, 'session.status', { data: { status: 'running' } }), ev(5, 'agent.model_started')], { status: 'running' });
    const env = { XDG_CACHE_HOME: cache };
    expect(await requests(() => json(['stats', '-l', 'set=f2'], { env }))).toBe(2);
    const [g] = await json(['stats', '-l', 'set=f2'], { env });
    // Still running: its time counts up to its last event.
    expect(g).toMatchObject({ turns: 1, running_seconds: 5, turn_seconds: null });
    expect(await requests(() => json(['stats', '-l', 'set=f2'], { env }))).toBe(2);
    await append(t.emu, s, [], { status: 'idle' });
  });

  it('a 429 pauses every reader for Retry-After (no reader sends a request until it ends) and the figures still come out whole', async () => {
    // More sessions than readers, so each reader has more to read when another is told to wait.
    for (let i = 0; i < 9; i++)
      await append(t.emu, await session(t.emu, b, { set: 'f4' }), [
        ev(0, 'session.status', { data: { status: 'running' } }),
        ev(4, 'session.status', { data: { status: 'idle' } }),
      ]);
    const stderr = new Capture();
    /** Requests svc has sent so far: the debug log writes a `>` line as each one goes. */
    const sent = () => stderr.text.match(/^debug: > /gm)?.length ?? 0;
    const pauses: Array<{ ms: number; sentBefore: number; sentAfter: number }> = [];
    const sleep = async (ms: number) => {
      const sentBefore = sent();
      // A real wait, long enough for a reader that did not pause to send its next request.
      await new Promise((resolve) => setTimeout(resolve, 200));
      pauses.push({ ms, sentBefore, sentAfter: sent() });
    };
    await call(t.emu, 'POST', '/_emulator/faults', { body: { rate_limit_every: 4, retry_after: 1 } });
    try {
      const r = await run(['stats', '-l', 'set=f4', '--concurrency', '3', '--debug', '-o', 'json'], { sleep, stderr });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)[0]).toMatchObject({ sessions: 9, turns: 9, running_seconds: 36 });
    } finally {
      await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
    }
    expect(stderr.text).toMatch(/^debug: < 429 /m);
    expect(pauses.length).toBeGreaterThan(0);
    for (const p of pauses) {
      expect(p.ms).toBeGreaterThanOrEqual(1000);
      expect(p.sentAfter, 'requests sent during a pause').toBe(p.sentBefore);
    }
  });

  it('on a terminal: the table, a bar per group and a sparkline of turns per day; piped -o table: the table only', async () => {
    const tty = await run(['stats', '-l', 'set=f1', '--by', 'agent'], { stdoutTTY: true, columns: 200 });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(/^GROUP\s+SESSIONS\s+FAILED\s+TURNS/m);
    expect(tty.stdout).toContain('turns per group');
    expect(tty.stdout).toMatch(/^fleet-a \(agent_\w+\)\s+█+\s+\d+ \(2 sessions, 1 failed\)$/m);
    expect(tty.stdout).toMatch(/^turns per day {2}2026-03-02 [▁-█]{2} 2026-03-03 {2}\(max \d+\)$/m);
    const piped = await run(['stats', '-l', 'set=f1', '-o', 'table']);
    expect(piped.stdout).toMatch(/^all\s+3\s+1\s+/m);
    expect(piped.stdout).not.toContain('turns per');
  });

  it('bad flags are exit 2 with nothing sent', async () => {
    const before = await requestCount(t.emu);
    for (const [args, msg] of [
      [['stats', '--by', 'colour'], /--by takes agent, day, status or label:KEY/],
      [['stats', '--by', 'label:'], /--by takes/],
      [['stats', '--concurrency', '0'], /--concurrency must be between 1 and 64/],
      [['stats', '--since', 'soon'], /--since takes a duration/],
      [['stats', 'sesn_1'], /too many arguments/],
    ] as const) {
      const r = await run([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stdout).toBe('');
    }
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('--since reads only sessions updated within it (the service filter updated_at_gt)', async () => {
    const turn = [
      ev(0, 'session.status', { data: { status: 'running' } }),
      ev(4, 'session.status', { data: { status: 'idle', stop_reason: { type: 'end_turn' } } }),
    ];
    const recent = await session(t.emu, a, { set: 'f3' });
    await append(t.emu, recent, turn);
    const old = await session(t.emu, a, { set: 'f3' });
    await append(t.emu, old, turn, { updated_at: new Date(Date.now() - 2 * 3600_000).toISOString() });
    const fresh = () => ({ XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'svc-stats-cache-')) });
    // Without --since both count: the older one is selected, so only --since can leave it out.
    expect((await json(['stats', '-l', 'set=f3'], { env: fresh() }))[0]).toMatchObject({ sessions: 2, turns: 2 });
    let r!: Awaited<ReturnType<typeof run>>;
    // The list (one page), then the recent session's history: the older one's is never asked for.
    expect(await requests(async () => (r = await run(['stats', '-l', 'set=f3', '--since', '1h', '--debug', '-o', 'json'], { env: fresh() })))).toBe(2);
    expect(r.code).toBe(0);
    expect(decodeURIComponent(r.stderr)).toMatch(/updated_at_gt=\d{4}-/);
    expect(r.stderr).toContain(recent);
    expect(r.stderr).not.toContain(old);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ sessions: 1, turns: 1 });
    // A window that reaches back past it takes it in again.
    expect((await json(['stats', '-l', 'set=f3', '--since', '3h'], { env: fresh() }))[0]).toMatchObject({ sessions: 2, turns: 2 });
  });
});
