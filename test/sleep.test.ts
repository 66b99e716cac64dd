import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { sleep } from '../src/async/sleep';

describe('sleep: the one abortable sleep', () => {
  it('true when the time ran out', async () => {
    expect(await sleep(1)).toBe(true);
    expect(await sleep(1, new AbortController().signal)).toBe(true);
  });

  it('an abort ends a long sleep at once with false, never a rejection, and leaves no listener on the signal', async () => {
    const stop = new AbortController();
    const long = sleep(3_600_000, stop.signal);
    stop.abort('SIGTERM');
    expect(await long).toBe(false);
    expect(await sleep(3_600_000, stop.signal)).toBe(false);
    const kept = new AbortController();
    for (let i = 0; i < 50; i++) await sleep(0, kept.signal);
    expect(getEventListeners(kept.signal, 'abort')).toHaveLength(0);
  });

  it('an aborted sleep leaves no timer behind to hold the process open', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const stop = new AbortController();
    const long = sleep(3_600_000, stop.signal);
    expect(timers()).toBe(before + 1);
    stop.abort();
    expect(await long).toBe(false);
    expect(timers()).toBe(before);
  });

  it('Infinity waits for the signal alone (a timer would fire at once)', async () => {
    const stop = new AbortController();
    let ended: boolean | undefined;
    const forever = sleep(Infinity, stop.signal).then((v) => (ended = v));
    // Well past the 1 ms a timer of Infinity would take.
    for (let i = 0; i < 5; i++) await sleep(5);
    expect(ended).toBeUndefined();
    stop.abort();
    await forever;
    expect(ended).toBe(false);
  });

  it('an injected sleep is waited on instead, cut short by an abort, and not called once aborted', async () => {
    const asked: number[] = [];
    let wake!: () => void;
    const by = (ms: number) => (asked.push(ms), new Promise<void>((r) => (wake = r)));
    const stop = new AbortController();
    const ran = sleep(500, stop.signal, by);
    wake();
    expect(await ran).toBe(true);
    const cut = sleep(700, stop.signal, by);
    stop.abort();
    expect(await cut).toBe(false);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    expect(await sleep(900, stop.signal, by)).toBe(false);
    expect(asked).toEqual([500, 700]);
  });
});
