// Rules proved here: R-STREAM-9, R-STREAM-10, R-STREAM-14, R-STREAM-19, R-STREAM-20, R-STREAM-25, R-STREAM-27, R-STREAM-28,
// R-STREAM-29, R-STREAM-30, R-HIST-9, R-HIST-10
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, history, send, waitIdleEvents, waitSession, waitUntil } from '../helpers/sse';
import { background as bg, scriptedServer, setFaults, sseFrame, stats, trackStreams } from '../api/stream/helpers';

const t = useEmulator({ modelStepMs: 1 });
const env = () => emuEnv(t.emu);
const fast = { sleep: async () => {} };
const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

let streamsOpen: ReturnType<typeof trackStreams>;
beforeAll(() => {
  streamsOpen = trackStreams(t.emu);
});
afterEach(async () => {
  await setFaults(t.emu, {});
});

const background = (args: string[]) => bg(args, env());

describe('svc sessions tail (NDJSON)', () => {
  it('R-HIST-9 R-HIST-10: prints the history then live events, one per line, and exits 0 when the running turn ends', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo first');
    await waitIdleEvents(t.emu, s.id, 1);
    await send(t.emu, s.id, `/slow 20 ${'w '.repeat(15)}`);
    const r = await svc(['sessions', 'tail', s.id, '--until', 'idle'], { env: env(), ...fast });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const printed = lines(r.stdout);
    const all = await history(t.emu, `/v1/sessions/${s.id}`);
    expect(printed.map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(printed.filter((e) => e.type === 'session.status' && e.data.status === 'idle')).toHaveLength(2);
  });

  it('--until idle on an idle session prints its whole backlog and exits 0', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo done already');
    const all = await waitIdleEvents(t.emu, s.id, 1);
    const r = await svc(['sessions', 'tail', s.id, '--cursor', '0', '--until', 'idle'], { env: env(), ...fast });
    expect(r.code).toBe(0);
    expect(lines(r.stdout).map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it("R-STREAM-9: writes each frame's data exactly as received", async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo raw text');
    const all = await waitIdleEvents(t.emu, s.id, 1);
    const tail = background(['sessions', 'tail', s.id, '--cursor', '0']);
    await waitUntil(() => tail.stdout.text.includes(all.at(-1).id), 'every event printed');
    tail.stop();
    expect((await tail.run).stdout).toBe(all.map((e) => JSON.stringify(e) + '\n').join(''));
  });

  it("R-STREAM-7 R-STREAM-9: each line is the frame's data byte for byte (1.50, integers past 2^53, escapes); data sent on several lines becomes one line", async () => {
    const exact =
      '{"id":"sevt_1","type":"agent.message","processed_at":"2026-11-23T12:00:01.000Z","data":{"price":1.50,"count":12345678901234567891,"big":1e400,"text":"caf\\u00e9 \\"q\\" \u2603"}}';
    const split = ['{"id":"sevt_2","type":"agent.message",', '"processed_at":"2026-11-23T12:00:02.000Z","data":{"n":2.0}}'];
    const idle = {
      id: 'sevt_3',
      type: 'session.status',
      processed_at: '2026-11-23T12:00:03.000Z',
      data: { status: 'idle', stop_reason: { type: 'end_turn' } },
    };
    const server = await scriptedServer({
      history: () => [idle],
      stream: () => ({
        frames:
          sseFrame('0', 'control', '{"cursor":"0","reason":"start"}') +
          sseFrame('1', 'agent.message', exact) +
          `id: 2\nevent: agent.message\n${split.map((l) => `data: ${l}\n`).join('')}\n` +
          sseFrame('3', 'session.status', JSON.stringify(idle)),
      }),
    });
    try {
      const r = await svc(['sessions', 'tail', 'sesn_scripted', '--cursor', '0', '--until', 'idle'], { env: emuEnv(server), ...fast });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${exact}\n${JSON.stringify(JSON.parse(split.join('\n')))}\n${JSON.stringify(idle)}\n`);
    } finally {
      await server.close();
    }
  });

  it('R-STREAM-10 R-STREAM-14: --cursor now prints only new events; agent.delta lines only with --deltas', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo old');
    await waitIdleEvents(t.emu, s.id, 1);
    // Without --until: on a session idle at the start, --until idle would end at once.
    const without = background(['sessions', 'tail', s.id, '--cursor', 'now']);
    const withDeltas = background(['sessions', 'tail', s.id, '--cursor', 'now', '--deltas']);
    // Both are subscribed once the server holds their two streams.
    await waitUntil(() => streamsOpen(s.id, 2), 'two subscribers');
    await send(t.emu, s.id, '/echo brand new words');
    const all = await waitIdleEvents(t.emu, s.id, 2);
    await waitUntil(() => [without, withDeltas].every((x) => x.stdout.text.includes(all.at(-1).id)), 'the turn printed by both');
    without.stop();
    withDeltas.stop();
    const [a, b] = await Promise.all([without.run, withDeltas.run]);
    expect([a.code, b.code]).toEqual([130, 130]);
    const fresh = all.slice(all.findIndex((e) => e.type === 'session.status' && e.data.status === 'idle') + 1);
    expect(lines(a.stdout).map((e) => e.id)).toEqual(fresh.map((e) => e.id));
    expect(
      lines(b.stdout)
        .filter((e) => e.type !== 'agent.delta')
        .map((e) => e.id),
    ).toEqual(fresh.map((e) => e.id));
    expect(
      lines(b.stdout)
        .filter((e) => e.type === 'agent.delta')
        .map((e) => e.data.delta)
        .join(''),
    ).toBe('brand new words');
    expect(a.stdout).not.toContain('agent.delta');
    expect(a.stdout + b.stdout).not.toContain('"reason"');
  });

  it('R-STREAM-19 R-STREAM-20 R-STREAM-25 R-STREAM-27 R-STREAM-28 R-STREAM-29 R-STREAM-30: a stream with 20 drops, an error frame and an expired cursor yields every event exactly once, in history order', async () => {
    const s = await createSession(t.emu);
    for (let i = 0; i < 10; i++) await send(t.emu, s.id, `/echo turn ${i}`);
    const before = await waitIdleEvents(t.emu, s.id, 10);
    expect(before.length).toBeGreaterThan(45);
    // Each reconnect waits in this sleep, so the test switches faults between connections.
    const gates = new Map<number, { open: () => void; opened: Promise<void>; reached: boolean }>();
    const gate = (n: number) => {
      let open!: () => void;
      const g = { open: () => open(), opened: new Promise<void>((r) => (open = r)), reached: false };
      gates.set(n, g);
      return g;
    };
    const afterDrops = gate(20);
    const afterError = gate(21);
    let reconnects = 0;
    const sleep = async () => {
      const g = gates.get(++reconnects);
      if (!g) return;
      g.reached = true;
      await g.opened;
    };
    await setFaults(t.emu, { drop_stream_after: 2 });
    const tail = bg(['sessions', 'tail', s.id, '--cursor', '0'], env(), { sleep });
    await waitUntil(() => afterDrops.reached, '20 drops');
    await setFaults(t.emu, { error_stream_after: 1 });
    afterDrops.open();
    await waitUntil(() => afterError.reached, 'an error frame');
    await setFaults(t.emu, { expire_cursors_older_than: 0 });
    const expiredBefore = (await stats(t.emu)).cursors_expired ?? 0;
    afterError.open();
    await waitUntil(async () => ((await stats(t.emu)).cursors_expired ?? 0) > expiredBefore, 'an expired cursor');
    await setFaults(t.emu, {});
    await send(t.emu, s.id, '/echo live after recovery');
    const after = await waitIdleEvents(t.emu, s.id, 11);
    await waitUntil(() => tail.stdout.text.includes(after.at(-1).id), 'the last event printed');
    tail.stop();
    const r = await tail.run;
    expect(r.code).toBe(130);
    expect(lines(r.stdout).map((e) => e.id)).toEqual(after.map((e) => e.id));
    const notices = r.stderr.split('\n').filter(Boolean);
    expect(notices.filter((l) => l.startsWith('reconnecting (attempt 1): the stream closed')).length).toBeGreaterThanOrEqual(20);
    expect(notices.some((l) => /reconnecting \(attempt 1\): stream error server_error/.test(l))).toBe(true);
    expect(notices).toContain('the stream cursor expired: backfilling missed events from history');
    expect(notices.at(-1)).toBe('error: interrupted');
  });

  it('exits 11 on --until idle when the turn ends in session.error', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, `/slow 50 ${'w '.repeat(20)}`);
    await waitSession(t.emu, s.id, (x) => x.status === 'running', 'the turn running');
    const tail = background(['sessions', 'tail', s.id, '--cursor', 'now', '--until', 'idle']);
    await waitUntil(() => streamsOpen(s.id), 'subscribed');
    // Steered input joins the running turn, which then ends in session.error.
    await send(t.emu, s.id, '/error model_error', 'steer');
    const r = await tail.run;
    expect(r.code).toBe(11);
    expect(r.stderr).toMatch(/^error: the session turn ended in session.error/);
    expect(lines(r.stdout).some((e) => e.type === 'session.error')).toBe(true);
  });

  it('exits 11 on --until idle when the session was archived (terminated), after printing its backlog', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo x');
    await waitIdleEvents(t.emu, s.id, 1);
    expect((await call(t.emu, 'POST', `/v1/sessions/${s.id}/archive`)).status).toBe(200);
    const r = await svc(['sessions', 'tail', s.id, '--until', 'idle', '-o', 'ndjson'], { env: env(), ...fast });
    expect(r.code).toBe(11);
    expect(r.stderr).toContain('was archived');
    expect(lines(r.stdout).map((e) => e.id)).toEqual((await history(t.emu, `/v1/sessions/${s.id}`)).map((e) => e.id));
    expect(lines(r.stdout).at(-1)).toMatchObject({ type: 'session.status', data: { status: 'terminated' } });
  });

  it("threads tail prints one thread's events", async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/delegate 2');
    const all = await waitIdleEvents(t.emu, s.id, 1);
    const tid = all.find((e) => e.type === 'session.thread_created').data.thread_id;
    const tail = background(['threads', 'tail', s.id, tid]);
    const expected = await history(t.emu, `/v1/sessions/${s.id}/threads/${tid}`);
    await waitUntil(() => streamsOpen(s.id), 'live');
    tail.stop();
    const r = await tail.run;
    expect(lines(r.stdout).map((e) => e.id)).toEqual(expected.map((e) => e.id));
    expect(lines(r.stdout).every((e) => e.session_thread_id === tid)).toBe(true);
  });

  it('rejects a bad --until with exit 2 before any request', async () => {
    const before = (await stats(t.emu)).requests ?? 0;
    const r = await svc(['sessions', 'tail', 'sesn_x', '--until', 'done'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: .*--until/);
    expect((await stats(t.emu)).requests ?? 0).toBe(before);
  });

  it('exits 6 for an unknown session', async () => {
    const r = await svc(['sessions', 'tail', 'sesn_missing', '--no-live'], { env: env(), ...fast });
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*type=resource_not_found_error status=404/);
  });
});

describe('svc sessions tail: honest flags (issue 26)', () => {
  it('--jq on a terminal prints the filtered events (no live view): svc sessions tail S --until idle --jq .type', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo typed');
    const all = await waitIdleEvents(t.emu, s.id, 1);
    const r = await svc(['sessions', 'tail', s.id, '--until', 'idle', '--jq', '.type'], { env: env(), stdoutTTY: true, ...fast });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(all.map((e) => `${e.type}\n`).join(''));
  });

  it('an explicit -o on a terminal prints events: -o ndjson one per line, -o yaml one document each, -o id their IDs', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo formats');
    const all = await waitIdleEvents(t.emu, s.id, 1);
    const ndjson = await svc(['sessions', 'tail', s.id, '--until', 'idle', '-o', 'ndjson'], { env: env(), stdoutTTY: true, ...fast });
    expect(ndjson.stdout).toBe(all.map((e) => JSON.stringify(e) + '\n').join(''));
    const yaml = await svc(['sessions', 'tail', s.id, '--until', 'idle', '-o', 'yaml'], { env: env(), stdoutTTY: true, ...fast });
    expect(yaml.code).toBe(0);
    expect(yaml.stdout.split(/^---$/m).filter(Boolean)).toHaveLength(all.length);
    expect(yaml.stdout).toContain(`id: ${all[0].id}\n`);
    const ids = await svc(['sessions', 'tail', s.id, '--until', 'idle', '-o', 'id'], { env: env(), ...fast });
    expect(ids.stdout).toBe(all.map((e) => `${e.id}\n`).join(''));
    const bad = await svc(['sessions', 'tail', s.id, '--until', 'idle', '-o', 'id', '--deltas'], { env: env(), ...fast });
    expect([bad.code, bad.stdout]).toEqual([2, '']);
    // -o table: one readable line per event, as the demo prints its transcript (no view, on a terminal too).
    const table = await svc(['sessions', 'tail', s.id, '--until', 'idle', '-o', 'table'], { env: env(), stdoutTTY: true, ...fast });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('you: /echo formats\n');
    expect(table.stdout).toContain('agent: formats\n');
    expect(table.stdout.endsWith('idle: end_turn\n')).toBe(true);
  });
});
