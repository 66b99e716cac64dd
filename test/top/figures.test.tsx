import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { Board } from '../../src/top/components/Board';
import type { BoardSink } from '../../src/top/sink';
import { initialState } from '../../src/top/state';
import { BoardStore } from '../../src/top/store';
import { busyHistory } from '../stats/history';

const sink: BoardSink = { act() {}, answer() {}, open() {}, quit() {}, abort() {} };
const now = Date.now();
const running = {
  id: 'sesn_run',
  title: 'busy',
  agent_id: 'agent_1',
  status: 'running',
  control_epoch: '1',
  created_at: new Date(now).toISOString(),
  updated_at: new Date(now).toISOString(),
  archived_at: null,
};

let view: ReturnType<typeof render> | undefined;
afterEach(() => view?.unmount());

describe('svc top figures (f)', () => {
  it("f shows the selected session's figures from the events the board streamed, counted as svc sessions stats counts them", async () => {
    const store = new BoardStore(initialState({ rows: 40, columns: 120 }));
    store.dispatch({ type: 'sessions.upsert', items: [running], at: now });
    store.dispatch({ type: 'events', id: 'sesn_run', events: busyHistory().map((event) => ({ event: event as never, at: now })) });
    store.publishNow();
    view = render(<Board store={store} sink={sink} />);
    const frame = () => view!.lastFrame() ?? '';
    expect(frame()).toMatch(/f figures/);
    view.stdin.write('f');
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(frame()).toMatch(/session_id\s+sesn_run/);
    expect(frame()).toMatch(/^turns\s+4$/m);
    expect(frame()).toMatch(/^tool_calls\s+6$/m);
    expect(frame()).toMatch(/^human_waits\s+2 \(7 s\)$/m);
    expect(frame()).toMatch(/^ttft_ms\s+p50 400 ms, p95 500 ms$/m);
    expect(frame()).toMatch(/^bash\s+2\s+1\s+100\s+300$/m);
    expect(frame()).toMatch(/f table/);
    view.stdin.write('f');
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(frame()).toMatch(/sesn_run\s+busy/);
  });

  it('a session with nothing streamed yet says so and names the command for its whole history', async () => {
    const store = new BoardStore(initialState({ rows: 20, columns: 120 }));
    store.dispatch({ type: 'sessions.upsert', items: [{ ...running, status: 'idle' }], at: now });
    store.dispatch({ type: 'figures.toggle' });
    store.publishNow();
    view = render(<Board store={store} sink={sink} />);
    expect(view.lastFrame()).toContain('no events streamed yet');
    expect(view.lastFrame()).toContain('svc sessions stats sesn_run');
  });
});
