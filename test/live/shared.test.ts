import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NAMED_KEYS, splitKeys } from '../../src/live/split-keys';
import { ThrottledStore } from '../../src/live/throttled-store';

describe('splitKeys', () => {
  it('keeps a lone key or a chord as Ink named it', () => {
    expect(splitKeys('t', {})).toEqual([['t', {}]]);
    expect(splitKeys('ab', { ctrl: true })).toEqual([['ab', { ctrl: true }]]);
  });

  it('splits a burst into single keys in order, naming control characters and dropping unnamed ones', () => {
    expect(splitKeys('hi\r\u007f\u0003\u0001', {})).toEqual([
      ['h', {}],
      ['i', {}],
      ['', { return: true }],
      ['', { backspace: true }],
      ['c', { ctrl: true }],
    ]);
    expect(splitKeys('a\tb', {})).toEqual([
      ['a', {}],
      ['', { tab: true }],
      ['b', {}],
    ]);
  });

  it('takes its own table of names (the board has no tab)', () => {
    const named = Object.fromEntries(Object.entries(NAMED_KEYS).filter(([ch]) => ch !== '\t'));
    expect(splitKeys('a\tb', {}, named)).toEqual([
      ['a', {}],
      ['b', {}],
    ]);
  });
});

describe('ThrottledStore', () => {
  let t = 0;
  const now = () => t;
  const reduce = (s: number, a: number) => s + a;
  beforeEach(() => {
    vi.useFakeTimers();
    t = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('publishes a flood of actions once per frame', () => {
    const store = new ThrottledStore(0, { reduce, frameMs: 100, now });
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.getSnapshot()));
    store.dispatch(1);
    store.dispatch(2);
    expect(store.getState()).toBe(3);
    expect(store.getSnapshot()).toBe(0);
    vi.advanceTimersByTime(0);
    expect(seen).toEqual([3]);
    store.dispatch(4);
    t = 50;
    vi.advanceTimersByTime(50);
    expect(seen).toEqual([3]);
    t = 100;
    vi.advanceTimersByTime(50);
    expect(seen).toEqual([3, 7]);
    expect(store.publishes).toBe(2);
  });

  it('without skipNoops an action that changes nothing still starts a frame; with it, none', () => {
    const live = new ThrottledStore(0, { reduce, frameMs: 100, now });
    live.dispatch(0);
    vi.advanceTimersByTime(0);
    live.dispatch(1);
    t = 10;
    vi.advanceTimersByTime(10);
    expect(live.getSnapshot()).toBe(0); // waits for the frame the no-op started

    t = 0;
    const board = new ThrottledStore(0, { reduce, frameMs: 100, now, skipNoops: true });
    board.dispatch(0);
    expect(vi.getTimerCount()).toBe(1); // only live's pending frame
    board.dispatch(1);
    vi.advanceTimersByTime(0);
    expect(board.getSnapshot()).toBe(1);
  });

  it('after close schedules no frame, and publishNow still draws', () => {
    const store = new ThrottledStore(0, { reduce, frameMs: 100, now });
    store.close();
    store.dispatch(1);
    expect(vi.getTimerCount()).toBe(0);
    store.publishNow();
    expect(store.getSnapshot()).toBe(1);
  });
});
