/** The live view on a 40-column terminal: state and keys wrap instead of being cut off. */
import { render } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveApp } from '../../src/live/components/App';
import { initialState } from '../../src/live/reducer';
import type { ActionSink } from '../../src/live/sink';
import { LiveStore } from '../../src/live/store';
import { waitUntil } from '../helpers/sse';
import { ev, live } from './fixtures';
import { FakeTtyIn, FakeTtyOut } from './tty';

const sink: ActionSink = { interrupt() {}, continue() {}, send() {}, confirm() {}, quit() {}, abort() {} };
let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function narrowView(columns: number) {
  const stdout = new FakeTtyOut();
  stdout.columns = columns;
  const store = new LiveStore(initialState('sesn_0000000559278a7d'));
  store.dispatch({ type: 'stream', item: live, at: 0 });
  store.dispatch({ type: 'session', session: { status: 'running', control_epoch: '12', title: 'a long session title' } });
  for (const id of ['th_1', 'th_2', 'th_3'])
    store.dispatch({ type: 'stream', item: ev('session.thread_created', { thread_id: id, agent_name: `worker-${id}` }, { session_thread_id: id }), at: 0 });
  store.publishNow();
  // debug: every frame written whole, so the last write is the screen.
  const ink = render(<LiveApp store={store} sink={sink} />, { stdout: stdout as never, stdin: new FakeTtyIn() as never, debug: true, patchConsole: false });
  unmount = ink.unmount;
  return { store, stdout };
}

describe('live view on a narrow terminal', () => {
  it('40 columns: the epoch, the connection and every key (q quit last) stay on the screen, no line is wider', async () => {
    const v = narrowView(40);
    const screen = await waitUntil(() => (v.stdout.plain.includes('q quit') ? v.stdout.plain : undefined), 'the footer');
    // The last frame (debug mode also writes the finished items after it).
    const last = screen.slice(screen.lastIndexOf('sesn_0000000559278a7d'), screen.lastIndexOf('q quit') + 'q quit'.length);
    expect(last).toContain('epoch 12');
    expect(last).toMatch(/^live │/m);
    for (const key of ['i interrupt', 'm message', 't thread: all', 'd hide deltas', 'q quit']) expect(last.replace(/\n/g, ' ')).toContain(key);
    for (const line of last.split('\n')) expect([...line].length).toBeLessThanOrEqual(40);
  });

  it('the thread filter stays visible ahead of a long thread list', async () => {
    const v = narrowView(40);
    v.store.dispatch({ type: 'filter.cycle' });
    v.store.publishNow();
    await waitUntil(() => v.stdout.plain.includes('t thread: main'), 'the filter on main');
    const last = v.stdout.plain.slice(v.stdout.plain.lastIndexOf('sesn_0000000559278a7d'));
    expect(last).toMatch(/^showing main │ threads: main → /m);
  });
});
