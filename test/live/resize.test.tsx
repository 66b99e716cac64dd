/** A narrower terminal: the view clears the screen, puts the last transcript lines back and draws one frame (issue 17). */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initialState } from '../../src/live/reducer';
import { RecentLines, redrawOnResize } from '../../src/live/resize';
import type { ActionSink } from '../../src/live/sink';
import { LiveStore } from '../../src/live/store';
import { waitUntil } from '../helpers/sse';
import { ev, live, text } from './fixtures';
import { FakeTtyIn, FakeTtyOut } from './tty';

const sink: ActionSink = { interrupt() {}, continue() {}, send() {}, confirm() {}, quit() {}, abort() {} };
let ink: Awaited<ReturnType<typeof loadInk>>[0] | undefined;
let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});
const loadInk = async () => (await import('../../src/live/load-ink')).loadInk();
beforeAll(async () => {
  [ink] = await loadInk();
});
const plain = (s: string) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

async function view() {
  const { liveView } = await import('../../src/live/components/App');
  const stdout = new FakeTtyOut();
  stdout.columns = 100;
  stdout.rows = 30;
  const recent = new RecentLines();
  cleanup.push(redrawOnResize(stdout, recent));
  const store = new LiveStore(initialState('sesn_resize'));
  store.dispatch({ type: 'stream', item: live, at: 0 });
  store.dispatch({ type: 'session', session: { status: 'running', control_epoch: '4', title: `a title ${'long '.repeat(14)}` } });
  for (const t of ['line one', 'line two']) store.dispatch({ type: 'stream', item: ev('agent.message', text(t)), at: 0 });
  store.publishNow();
  // Not debug: Ink erases and redraws its frame in place, as on a terminal.
  const app = ink!.render(liveView({ store, sink, onWrite: recent.add }), {
    stdout: stdout as never,
    stdin: new FakeTtyIn() as never,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  cleanup.unshift(() => app.unmount());
  await waitUntil(() => stdout.plain.includes('line two') && stdout.plain.includes('q quit'), 'the first frame');
  return stdout;
}

describe('live view on a terminal that gets narrower', () => {
  it('clears the screen, writes the last transcript lines again, then one frame at the new width', async () => {
    const stdout = await view();
    const mark = stdout.text.length;
    stdout.columns = 40;
    stdout.emit('resize');
    const after = () => stdout.text.slice(mark);
    await waitUntil(() => plain(after()).includes('q quit'), 'the frame drawn again');
    // Whatever the terminal did with the old frame's rows (re-wrapped them, or wrapped a frame drawn at the old
    // width), none of them stays: the screen is cleared first.
    expect(after().startsWith('\u001b[2J\u001b[H')).toBe(true);
    const shown = plain(after());
    expect(shown).toMatch(/^line one\nline two\n/);
    expect(shown.split('sesn_resize').length).toBe(2);
    for (const line of shown.split('\n')) expect([...line].length).toBeLessThanOrEqual(40);
  });

  it('a wider terminal is left to Ink: nothing is cleared', async () => {
    const stdout = await view();
    const mark = stdout.text.length;
    stdout.columns = 120;
    stdout.emit('resize');
    await waitUntil(() => plain(stdout.text.slice(mark)).includes('q quit'), 'the frame drawn again');
    expect(stdout.text.slice(mark)).not.toContain('\u001b[2J');
  });
});
