// Rules proved here: R-STREAM-2, R-STREAM-9, R-STREAM-10, R-STREAM-14, R-STREAM-16, R-STREAM-19, R-STREAM-20, R-STREAM-25,
// R-STREAM-26, R-STREAM-27, R-STREAM-28, R-STREAM-29, R-STREAM-30, R-STREAM-31, R-HIST-9, R-HIST-10
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError } from '../../../src/api/errors';
import { follow } from '../../../src/api/stream/resumable';
import { startEmulator } from '../../../src/emulator/server';
import { call, useEmulator } from '../../helpers/emulator';
import { createSession, history, send, waitIdleEvents, waitUntil } from '../../helpers/sse';
import { client, collect, idleCount, setFaults, stats } from './helpers';

const t = useEmulator({ modelStepMs: 1 });

afterEach(async () => {
  await setFaults(t.emu, {});
});

const ids = (events: Array<{ id: string }>) => events.map((e) => e.id);

describe('follow()', () => {
  it('R-HIST-9 R-HIST-10: reads the whole history, then goes live from its stream_cursor, each event once', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo one two');
    await waitIdleEvents(t.emu, s.id, 1);
    const f = collect(t.emu, { sessionId: s.id });
    await f.waitFor((items) => items.some((i) => i.kind === 'connection' && i.state.kind === 'live'), 'live');
    await send(t.emu, s.id, '/echo three');
    await f.waitFor((items) => idleCount(items) === 2, 'second idle');
    await f.stop();
    expect(ids(f.events())).toEqual(ids(await history(t.emu, `/v1/sessions/${s.id}`)));
    expect(f.items.filter((i) => i.kind === 'delta')).toHaveLength(0);
    expect(f.states().map((x) => x.kind)).toEqual(['connecting', 'live', 'closed']);
  });

  it('R-STREAM-10: cursor now delivers only events produced after connecting', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo before');
    await waitIdleEvents(t.emu, s.id, 1);
    const f = collect(t.emu, { sessionId: s.id, cursor: 'now' });
    await f.waitFor((items) => items.some((i) => i.kind === 'connection' && i.state.kind === 'live'), 'live');
    await send(t.emu, s.id, '/echo after');
    await f.waitFor((items) => idleCount(items) === 1, 'idle');
    await f.stop();
    const all = await history(t.emu, `/v1/sessions/${s.id}`);
    const firstIdle = all.findIndex((e) => e.type === 'session.status' && e.data.status === 'idle');
    expect(ids(f.events())).toEqual(ids(all.slice(firstIdle + 1)));
  });

  it('R-STREAM-14 R-STREAM-9: yields deltas only when asked, with raw frame text, and never a control frame', async () => {
    const s = await createSession(t.emu);
    const f = collect(t.emu, { sessionId: s.id, cursor: 'now', deltas: true });
    await f.waitFor((items) => items.some((i) => i.kind === 'connection' && i.state.kind === 'live'), 'live');
    await send(t.emu, s.id, '/echo alpha beta gamma');
    await f.waitFor((items) => idleCount(items) === 1, 'idle');
    await f.stop();
    expect(
      f
        .deltas()
        .map((d) => (d.data as { delta: string }).delta)
        .join(''),
    ).toBe('alpha beta gamma');
    for (const i of f.items) {
      if (i.kind === 'event') expect(JSON.parse(i.raw)).toEqual(i.event);
      if (i.kind === 'delta') expect(JSON.parse(i.raw)).toEqual(i.delta);
    }
    expect(f.events().some((e) => e.type === 'control')).toBe(false);
  });

  it('R-STREAM-20 R-STREAM-25 R-STREAM-26: resumes after silent drops from the last frame id, never repeating an event', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo a b c d e f g h');
    await send(t.emu, s.id, '/echo i j k l');
    const all = await waitIdleEvents(t.emu, s.id, 2);
    const before = (await stats(t.emu)).stream_drops ?? 0;
    await setFaults(t.emu, { drop_stream_after: 2 });
    const f = collect(t.emu, { sessionId: s.id, cursor: '0' });
    await f.waitFor(() => f.events().length >= all.length, 'every event');
    await f.stop();
    expect(ids(f.events())).toEqual(ids(all));
    const reconnects = f.states().filter((x) => x.kind === 'reconnecting');
    expect(reconnects.length).toBeGreaterThanOrEqual(Math.floor(all.length / 2) - 1);
    expect(reconnects[0]).toMatchObject({ attempt: 1, reason: expect.stringContaining('closed') });
    expect((await stats(t.emu)).stream_drops - before).toBeGreaterThanOrEqual(reconnects.length);
  });

  it('R-STREAM-19: reports an error frame (type and message) and resumes after the close that follows', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo one two three');
    const all = await waitIdleEvents(t.emu, s.id, 1);
    await setFaults(t.emu, { error_stream_after: 3 });
    const f = collect(t.emu, { sessionId: s.id, cursor: '0' });
    await f.waitFor(() => f.events().length >= all.length, 'every event');
    await f.stop();
    expect(ids(f.events())).toEqual(ids(all));
    expect(f.states().find((x) => x.kind === 'reconnecting')).toMatchObject({ reason: expect.stringMatching(/server_error: the stream failed/) });
  });

  it('R-STREAM-27 R-STREAM-28 R-STREAM-29 R-STREAM-30 R-STREAM-31: recovers from an expired cursor by backfilling after the last delivered event', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo first turn');
    await waitIdleEvents(t.emu, s.id, 1);
    // The reconnect waits until the test lets it go, so the cursor can expire meanwhile.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // Faults apply to streams opened after they are set: the live stream drops after two frames.
    await setFaults(t.emu, { drop_stream_after: 2 });
    const f = collect(t.emu, { sessionId: s.id, deltas: true, sleep: () => gate });
    await f.waitFor((items) => items.some((i) => i.kind === 'connection' && i.state.kind === 'live'), 'live');
    await send(t.emu, s.id, '/echo second turn with many words in it');
    await f.waitFor(() => f.states().some((x) => x.kind === 'reconnecting'), 'drop');
    await setFaults(t.emu, { expire_cursors_older_than: 3 });
    const all = await waitIdleEvents(t.emu, s.id, 2);
    release();
    await f.waitFor((items) => idleCount(items) === 2, 'second idle');
    await f.stop();
    expect(ids(f.events())).toEqual(ids(all));
    const kinds = f.states().map((x) => x.kind);
    expect(kinds.slice(kinds.indexOf('reconnecting'))).toEqual(['reconnecting', 'backfilling', 'live', 'closed']);
    expect((await stats(t.emu)).cursors_expired).toBeGreaterThanOrEqual(1);
  });

  it('R-STREAM-30: merges live events that arrive during the backfill without repeating any', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo warm up');
    await waitIdleEvents(t.emu, s.id, 1);
    await setFaults(t.emu, { expire_cursors_older_than: 0 });
    // Any cursor but the newest is expired: the opaque start cursor forces a recovery while a turn streams.
    const f = collect(t.emu, { sessionId: s.id, cursor: '1' });
    await send(t.emu, s.id, '/slow 2 ' + Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '));
    await f.waitFor((items) => idleCount(items) === 2, 'second idle');
    await f.stop();
    const all = await history(t.emu, `/v1/sessions/${s.id}`);
    expect(new Set(ids(f.events())).size).toBe(f.events().length);
    expect(ids(f.events())).toEqual(ids(all));
  });

  it('R-STREAM-16: keep-alives hold a quiet connection open; silence for two intervals reconnects', async () => {
    const quiet = await startEmulator({ port: 0, heartbeatMs: 10 });
    const silent = await startEmulator({ port: 0, heartbeatMs: 60_000 });
    try {
      const a = await createSession(quiet);
      const b = await createSession(silent);
      // The quiet stream's interval leaves room for a loaded machine's pauses (its server beats every 10 ms); the
      // silent one's is short, so its dead connections come quickly.
      const started = Date.now();
      const kept = collect(quiet, { sessionId: a.id, cursor: 'now', heartbeatMs: 300 });
      const dropped = collect(silent, { sessionId: b.id, cursor: 'now', heartbeatMs: 20 });
      await dropped.waitFor(() => dropped.states().filter((x) => x.kind === 'reconnecting').length >= 6, 'dead connections');
      // The quiet stream stays open over more than four of its intervals, silence limits and all.
      await new Promise((r) => setTimeout(r, Math.max(0, 1_300 - (Date.now() - started))));
      expect(dropped.states().find((x) => x.kind === 'reconnecting')).toMatchObject({ reason: expect.stringContaining('no keep-alive') });
      expect(kept.states().map((x) => x.kind)).toEqual(['connecting', 'live']);
      await kept.stop();
      await dropped.stop();
    } finally {
      await quiet.close();
      await silent.close();
    }
  });

  it('gives up after maxRetries consecutive failed connection attempts', async () => {
    const gone = await startEmulator({ port: 0 });
    const url = gone.url;
    await gone.close();
    const sleeps: number[] = [];
    const items: string[] = [];
    const run = async () => {
      for await (const it of follow({
        client: client({ url, apiKey: 'k' }, 0),
        sessionId: 'sesn_x',
        cursor: 'now',
        maxRetries: 2,
        sleep: async (ms) => void sleeps.push(ms),
        random: () => 0,
      })) {
        if (it.kind === 'connection') items.push(it.state.kind === 'reconnecting' ? `reconnecting ${it.state.attempt}` : it.state.kind);
      }
    };
    await expect(run()).rejects.toBeInstanceOf(NetworkError);
    expect(items).toEqual(['connecting', 'reconnecting 1', 'reconnecting 2']);
    // Exponential back-off: half of 250 ms, then half of 500 ms with zero jitter.
    expect(sleeps).toEqual([125, 250]);
  });

  it('counts connection attempts itself: --max-retries 2 is 3 connections even with a retrying client', async () => {
    let connections = 0;
    const server = createNetServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const run = async () => {
        for await (const _ of follow({
          client: client({ url, apiKey: 'k' }, 3),
          sessionId: 'sesn_x',
          cursor: 'now',
          maxRetries: 2,
          sleep: async () => {},
          random: () => 0,
        }));
      };
      await expect(run()).rejects.toBeInstanceOf(NetworkError);
      expect(connections).toBe(3);
    } finally {
      server.close();
    }
  });

  it('throws the service error when the session does not exist', async () => {
    const f = collect(t.emu, { sessionId: 'sesn_missing', cursor: 'now' });
    await f.finished;
    expect(f.state.error).toMatchObject({ status: 404, type: 'resource_not_found_error' });
  });

  it('ends cleanly when aborted while waiting for events', async () => {
    const s = await createSession(t.emu);
    const f = collect(t.emu, { sessionId: s.id, cursor: 'now' });
    await f.waitFor((items) => items.some((i) => i.kind === 'connection' && i.state.kind === 'live'), 'live');
    await f.stop();
    expect(f.state.error).toBeUndefined();
    expect(f.states().map((x) => x.kind)).toEqual(['connecting', 'live', 'closed']);
    await waitUntil(async () => (await call(t.emu, 'GET', `/v1/sessions/${s.id}`)).status === 200, 'server still fine');
  });

  it('follows one thread stream (history then live) with the thread endpoints', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/delegate 1');
    const all = await waitIdleEvents(t.emu, s.id, 1);
    const created = all.find((e) => e.type === 'session.thread_created');
    const tid = created.data.thread_id as string;
    const f = collect(t.emu, { sessionId: s.id, threadId: tid });
    await f.waitFor((items) => items.some((i) => i.kind === 'connection' && i.state.kind === 'live'), 'live');
    await f.stop();
    expect(ids(f.events())).toEqual(ids(await history(t.emu, `/v1/sessions/${s.id}/threads/${tid}`)));
    expect(f.events().length).toBeGreaterThan(0);
  });
});
