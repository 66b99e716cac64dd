// Rules proved here: R-HIST-8, R-HIST-10, R-STREAM-11, R-STREAM-25, R-STREAM-28, R-STREAM-29, R-STREAM-30
// The reader checks for repeats only at seams; each test feeds the overlap a seam allows and expects every event once.
import { afterEach, describe, expect, it } from 'vitest';
import { collect, scriptedEvent as ev, scriptedServer, sseFrame, type Script } from './helpers';

const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Sent after the frames of the response that stays open: once it is delivered, so is everything sent before it. */
const SENTINEL = 1000;

async function serve(script: Script) {
  const s = await scriptedServer({
    ...script,
    stream: (cursor, n) => {
      const r = script.stream(cursor, n);
      return typeof r === 'string' || r.end ? r : { frames: r.frames + eventFrame(SENTINEL) };
    },
  });
  servers.push(s);
  return s;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const control = (cursor: string) => sseFrame(cursor, 'control', JSON.stringify({ cursor, reason: 'resume' }));
/** Event n as a frame whose resume cursor is `n` (or none). */
const eventFrame = (n: number, withId = true) => sseFrame(withId ? String(n) : undefined, 'agent.message', JSON.stringify(ev(n)));
const frames = (ns: number[]) => ns.map((n) => eventFrame(n)).join('');

/** The events delivered, in order, up to the sentinel: a repeat of any of them would be among them. */
async function follow(server: { url: string; apiKey: string }, cursor?: string) {
  const f = collect(server, { sessionId: 'sesn_scripted', cursor });
  await f.waitFor((items) => items.some((i) => i.kind === 'event' && i.event.id === `sevt_${SENTINEL}`), 'the sentinel after the last frame');
  await f.stop();
  return f
    .events()
    .map((e) => Number(e.id.slice(5)))
    .filter((n) => n !== SENTINEL);
}

describe('follow() at each seam', () => {
  it('R-HIST-8 R-HIST-10: live events that repeat the end of the history are delivered once', async () => {
    const server = await serve({
      history: () => range(1, 5).map((n) => ev(n)),
      streamCursor: '3',
      stream: () => ({ frames: control('3') + frames(range(3, 8)) }),
    });
    expect(await follow(server)).toEqual(range(1, 8));
    expect(server.cursors).toEqual(['3']);
  });

  it('R-HIST-10: a history without stream_cursor replays from the start, and the replayed events are skipped', async () => {
    const server = await serve({
      history: () => range(1, 5).map((n) => ev(n)),
      stream: () => ({ frames: control('0') + frames(range(1, 7)) }),
    });
    expect(await follow(server)).toEqual(range(1, 7));
    expect(server.cursors).toEqual(['0']);
  });

  it('R-STREAM-11 R-STREAM-25: after frames without an id, the reconnect repeats them and each is delivered once', async () => {
    const server = await serve({
      history: () => [],
      stream: (cursor, n) =>
        n === 0
          ? { frames: control('0') + eventFrame(1) + eventFrame(2, false) + eventFrame(3, false), end: true }
          : { frames: control(cursor) + frames(range(2, 5)) },
    });
    expect(await follow(server, '0')).toEqual(range(1, 5));
    expect(server.cursors).toEqual(['0', '1']);
  });

  it('R-STREAM-11: a reconnect from the last frame id after an error frame delivers the rest once', async () => {
    const server = await serve({
      history: () => [],
      stream: (cursor, n) =>
        n === 0
          ? { frames: control('0') + frames(range(1, 3)) + sseFrame('3', 'error', '{"error":{"type":"server_error","message":"x"}}'), end: true }
          : { frames: control(cursor) + frames(range(4, 6)) },
    });
    expect(await follow(server, '0')).toEqual(range(1, 6));
    expect(server.cursors).toEqual(['0', '3']);
  });

  it('R-STREAM-28 R-STREAM-29 R-STREAM-30: buffered live events that repeat the backfill are delivered once', async () => {
    const server = await serve({
      // By the backfill, events 6..9 are persisted; 8 and 9 also arrive on the cursor=now stream.
      history: () => range(1, 9).map((n) => ev(n)),
      stream: (cursor, n) => {
        if (n === 0) return { frames: control('0') + frames(range(1, 5)), end: true };
        if (n === 1) return 'expired';
        return { frames: control('7') + frames(range(8, 11)) };
      },
    });
    expect(await follow(server, '0')).toEqual(range(1, 11));
    expect(server.cursors).toEqual(['0', '5', 'now']);
  });

  it('R-HIST-10 R-STREAM-30: the first new event ends a seam, and a later seam still catches its repeats', async () => {
    let persisted = 5;
    const server = await serve({
      history: () => range(1, persisted).map((n) => ev(n)),
      streamCursor: '4',
      stream: (cursor, n) => {
        if (n === 0) {
          persisted = 12;
          return { frames: control('4') + frames(range(4, 8)), end: true };
        }
        if (n === 1) return 'expired';
        return { frames: control('12') + frames(range(10, 14)) };
      },
    });
    expect(await follow(server)).toEqual(range(1, 14));
  });
});
