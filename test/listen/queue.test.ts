import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Delivery, Destination, Outcome } from '../../src/listen/destination';
import { DeliveryQueue, type Place, type Result } from '../../src/listen/queue';
import { waitUntil } from '../helpers/sse';

/** A destination the test answers by hand: each attempt waits until the test settles it. */
class Hand implements Destination {
  readonly name = 'http://receiver.test/hooks';
  readonly attempts: Array<{ d: Delivery; n: number; answer: (o: Outcome) => void; signal: AbortSignal }> = [];
  constructor(readonly concurrency = 2) {}
  attempt(d: Delivery, n: number, signal: AbortSignal): Promise<Outcome> {
    return new Promise((answer) => {
      this.attempts.push({ d, n, answer, signal });
      // As a real destination does: an abandoned attempt ends at once.
      signal.addEventListener('abort', () => answer({ kind: 'retry', reason: 'abandoned' }), { once: true });
    });
  }
  /** The attempts not answered yet. */
  open(): Hand['attempts'] {
    return this.attempts.filter((a) => !(a as any).done);
  }
  answer(eventId: string, o: Outcome): void {
    const a = this.attempts.find((x) => x.d.eventId === eventId && !(x as any).done);
    if (!a) throw new Error(`no open attempt for ${eventId}`);
    (a as any).done = true;
    a.answer(o);
  }
}

const delivery = (sessionId: string, eventId: string): Delivery => ({
  id: `dlv_${sessionId}_${eventId}`,
  sessionId,
  eventId,
  type: 'agent.message',
  body: '{}',
});

function queue(dest: Destination, o: { capacity?: number; sessionCapacity?: number; noticeEveryMs?: number; backoffBaseMs?: number } = {}) {
  const settled: Array<[string, string]> = [];
  const results: Result[] = [];
  const notices: string[] = [];
  const q = new DeliveryQueue({
    destination: dest,
    capacity: o.capacity ?? 100,
    sessionCapacity: o.sessionCapacity ?? 100,
    settle: (sid: string, p: Place) => settled.push([sid, p.id]),
    result: (r) => results.push(r),
    notice: (l) => notices.push(l),
    now: Date.now,
    random: () => 0,
    backoffBaseMs: o.backoffBaseMs ?? 10,
    backoffCapMs: o.backoffBaseMs === undefined ? 20 : 60_000,
    noticeEveryMs: o.noticeEveryMs ?? 60_000,
  });
  return { q, settled, results, notices };
}

const place = (id: string): Place => ({ id, processed_at: '2026-11-26T00:00:00.000Z' });
const ok: Outcome = { kind: 'accepted', status: 200 };

afterEach(() => vi.useRealTimers());

describe('the delivery queue', () => {
  it("delivers each session's events one at a time, in order, and settles a session's place only once the deliveries before it are", async () => {
    const dest = new Hand(4);
    const { q, settled } = queue(dest);
    await q.push(delivery('a', 'e1'));
    q.settle('a', place('e1'));
    await q.push(delivery('a', 'e2'));
    q.settle('a', place('e3'));
    expect(dest.open().map((a) => a.d.eventId)).toEqual(['e1']);
    expect(settled).toEqual([]);
    dest.answer('e1', ok);
    await waitUntil(() => dest.open().length === 1 && dest.open()[0].d.eventId === 'e2', 'e2 to start');
    expect(settled).toEqual([['a', 'e1']]);
    dest.answer('e2', ok);
    await waitUntil(() => settled.length === 2, 'e3 settled');
    expect(settled).toEqual([
      ['a', 'e1'],
      ['a', 'e3'],
    ]);
    // Nothing pending: settled at once.
    q.settle('a', place('e4'));
    expect(settled.at(-1)).toEqual(['a', 'e4']);
  });

  it('a session whose receiver keeps failing delays only itself: the other sessions are delivered meanwhile, and it is retried with the same delivery', async () => {
    const dest = new Hand(1);
    const { q, results } = queue(dest);
    await q.push(delivery('stuck', 's1'));
    await q.push(delivery('b', 'b1'));
    await q.push(delivery('b', 'b2'));
    dest.answer('s1', { kind: 'retry', reason: 'status 503' });
    // While s1 waits out its back-off, its slot serves b.
    await waitUntil(() => dest.open()[0]?.d.eventId === 'b1', 'b1 to start');
    dest.answer('b1', ok);
    await waitUntil(() => dest.open().length === 1, 'the next attempt');
    const next = dest.open()[0];
    dest.answer(next.d.eventId, ok);
    await waitUntil(() => results.length === 2, 'two delivered');
    await waitUntil(() => dest.open().length === 1, 'the last attempt');
    dest.answer(dest.open()[0].d.eventId, ok);
    await waitUntil(() => results.length === 3, 'all delivered');
    expect(results.filter((r) => r.delivery.sessionId === 'b').map((r) => r.delivery.eventId)).toEqual(['b1', 'b2']);
    const s1 = dest.attempts.filter((a) => a.d.eventId === 's1');
    expect(s1.map((a) => [a.d.id, a.n])).toEqual([
      ['dlv_stuck_s1', 1],
      ['dlv_stuck_s1', 2],
    ]);
    expect(q.counts).toEqual({ delivered: 3, dropped: 0, retried: 1 });
  });

  it('when full, push waits (reading pauses) and nothing is dropped; a notice says so at once and then every interval while it lasts', async () => {
    vi.useFakeTimers();
    const dest = new Hand(1);
    const { q, notices, results } = queue(dest, { capacity: 2, noticeEveryMs: 50 });
    await q.push(delivery('a', 'e1'));
    await q.push(delivery('b', 'e2'));
    let third = false;
    const pushing = q.push(delivery('c', 'e3')).then((queued) => (third = queued));
    await vi.advanceTimersByTimeAsync(0);
    expect(notices).toEqual(['deliveries to http://receiver.test/hooks are behind: 2 pending, reading paused for 1 session(s); nothing is dropped']);
    await vi.advanceTimersByTimeAsync(100);
    expect(notices).toHaveLength(3);
    expect(third).toBe(false);
    dest.answer('e1', ok);
    await pushing;
    expect(third).toBe(true);
    const said = notices.length;
    for (const id of ['e2', 'e3']) {
      await vi.advanceTimersByTimeAsync(0);
      expect(dest.open().map((a) => a.d.eventId)).toEqual([id]);
      dest.answer(id, ok);
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(results).toHaveLength(3);
    // Once room came back, the notices stopped: ten intervals on, none more.
    await vi.advanceTimersByTimeAsync(500);
    expect(notices.length).toBe(said);
  });

  it('one session never fills the whole queue: past its own bound its reader waits while other sessions still queue', async () => {
    const dest = new Hand(1);
    const { q } = queue(dest, { capacity: 10, sessionCapacity: 2 });
    await q.push(delivery('a', 'a1'));
    await q.push(delivery('a', 'a2'));
    let queued = false;
    void q.push(delivery('a', 'a3')).then((x) => (queued = x));
    expect(await q.push(delivery('b', 'b1'))).toBe(true);
    expect(queued).toBe(false);
    dest.answer('a1', ok);
    await waitUntil(() => queued, 'a3 to be queued');
  });

  it('close lets attempts in flight finish within the grace, then abandons them unsettled', async () => {
    const dest = new Hand(2);
    const { q, settled } = queue(dest);
    await q.push(delivery('a', 'e1'));
    q.settle('a', place('e1'));
    await q.push(delivery('b', 'e2'));
    q.settle('b', place('e2'));
    const closing = q.close(100);
    dest.answer('e1', ok);
    await closing;
    expect(dest.attempts.find((a) => a.d.eventId === 'e2')!.signal.aborted).toBe(true);
    expect(settled).toEqual([['a', 'e1']]);
    expect(q.size).toBe(1);
  });

  describe("a receiver's Retry-After", () => {
    /** One delivery whose every attempt the receiver answers with this outcome; the attempts made after `ms`. */
    async function attemptsAfter(outcome: Outcome, ms: number): Promise<{ attempts: number; notices: string[] }> {
      vi.useFakeTimers();
      const dest = new Hand(1);
      const { q, notices } = queue(dest, { backoffBaseMs: 500 });
      await q.push(delivery('a', 'e1'));
      let answered = 0;
      for (let t = 0; t < ms; t += 100) {
        for (const a of dest.open()) {
          (a as any).done = true;
          answered++;
          a.answer(outcome);
        }
        await vi.advanceTimersByTimeAsync(100);
      }
      return { attempts: answered, notices };
    }

    it('a wait asked far in the future (3 000 000 s, a date in 2100) is clamped to 60 s: one attempt a minute, one notice per wait', async () => {
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.name);
      process.on('warning', onWarning);
      try {
        const r = await attemptsAfter({ kind: 'retry', reason: 'status 429', status: 429, afterMs: 3_000_000_000 }, 130_000);
        // At 0 s, after 60 s, after 120 s.
        expect(r.attempts).toBe(3);
        expect(r.notices).toHaveLength(3);
        expect(r.notices[0]).toMatch(/attempt 1 failed: status 429; next attempt in 60s$/);
        expect(warnings).not.toContain('TimeoutOverflowWarning');
      } finally {
        process.off('warning', onWarning);
      }
    });

    it('a wait of 0 never retries sooner than the back-off (500 ms doubling), so the receiver is not hammered', async () => {
      const r = await attemptsAfter({ kind: 'retry', reason: 'status 503', status: 503, afterMs: 0 }, 3_000);
      // random() is 0: waits of 250, 500, 1000, 2000 ms; without the floor it was an attempt every tick.
      expect(r.attempts).toBe(4);
      expect(r.notices[0]).toMatch(/next attempt in 250ms$/);
    });
  });
});
