import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { INK_OPTIONS } from '../../src/live/mount';
import { initialState } from '../../src/live/reducer';
import type { ActionSink } from '../../src/live/sink';
import { LiveStore } from '../../src/live/store';
import { delta, ev, live, text } from './fixtures';
import { FakeTtyIn, FakeTtyOut } from './tty';

let ink: Awaited<ReturnType<typeof import('../../src/live/load-ink').loadInk>>;
beforeAll(async () => {
  ink = await (await import('../../src/live/load-ink')).loadInk();
});
afterEach(() => vi.useRealTimers());

const noSink: ActionSink = { interrupt() {}, continue() {}, send() {}, confirm() {}, quit() {}, abort() {} };

/** The most frames in any one second: frames are the instants (of the fake clock) at which the terminal was written. */
function busiestSecond(frames: number[]): number {
  let most = 0;
  for (let i = 0, j = 0; i < frames.length; i++) {
    while (frames[i] - frames[j] >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe('the live view under a firehose (docs/behaviour.md: at most ~30 frames per second)', () => {
  it('draws at most 30 frames in any second, with Ink as the view mounts it, counted on a fake clock', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const stdout = new FakeTtyOut();
    const frames: number[] = [];
    const write = stdout.write.bind(stdout);
    stdout.write = (chunk, cb) => {
      // Writes at the same instant are one frame (its redraw, and the transcript lines written with it).
      if (frames.at(-1) !== Date.now()) frames.push(Date.now());
      return write(chunk, cb);
    };
    const store = new LiveStore(initialState('sesn_burst'), undefined, () => Date.now());
    const [{ render }, { liveView }] = ink;
    const view = render(liveView({ store, sink: noSink, interactive: false }), {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: new FakeTtyIn() as unknown as NodeJS.ReadStream,
      stderr: new FakeTtyOut() as unknown as NodeJS.WriteStream,
      ...INK_OPTIONS,
    });
    store.dispatch({ type: 'stream', item: live, at: Date.now() });
    // Two seconds of a firehose: every millisecond a batch of deltas and complete events.
    for (let ms = 0; ms < 2000; ms++) {
      const at = Date.now();
      store.dispatch({
        type: 'batch',
        items: [
          { item: delta({ kind: 'text', delta: `w${ms} ` }), at },
          { item: ev('agent.thinking', text(`thought ${ms}`), { id: `sevt_${ms}` }), at },
        ],
      });
      await vi.advanceTimersByTimeAsync(1);
    }
    await vi.advanceTimersByTimeAsync(100);
    view.unmount();
    expect(stdout.plain).toContain('thought 1999');
    // Not starved either: about 30 a second over the two seconds.
    expect(frames.length).toBeGreaterThan(50);
    expect(busiestSecond(frames)).toBeLessThanOrEqual(30);
  });
});
