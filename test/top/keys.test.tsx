import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { Board } from '../../src/top/components/Board';
import type { BoardSink, WriteAction } from '../../src/top/sink';
import { initialState, selectedRow, type Action } from '../../src/top/state';
import { BoardStore } from '../../src/top/store';
import { waitUntil } from '../helpers/sse';

/** A sink that records what the board asked for. */
class FakeSink implements BoardSink {
  calls: unknown[][] = [];
  act(action: WriteAction, ids: readonly string[]) {
    this.calls.push([action, [...ids]]);
  }
  answer(id: string, result: string) {
    this.calls.push(['answer', id, result]);
  }
  open(id: string) {
    this.calls.push(['open', id]);
  }
  quit() {
    this.calls.push(['quit']);
  }
  abort() {
    this.calls.push(['abort']);
  }
}

const KEY = { enter: '\r', esc: '\u001b', ctrlC: '\u0003', down: '\u001b[B', up: '\u001b[A', backspace: '\u007f' };
const now = Date.now();
const iso = (s: number) => new Date(now - 60_000 + s * 1000).toISOString();
const session = (id: string, s: number, o: Record<string, unknown> = {}) => ({
  id,
  title: `title ${id}`,
  agent_id: 'agent_1',
  status: 'idle',
  control_epoch: '4',
  created_at: iso(0),
  updated_at: iso(s),
  archived_at: null,
  stop_reason: { type: 'end_turn' },
  ...o,
});

/** The fleet the tests draw: newest first, so `run` is the first row. */
const FLEET = [
  session('sesn_idle', 1),
  session('sesn_wait', 2, { requires_action: true, stop_reason: { type: 'requires_action', event_ids: ['ev_1'] } }),
  session('sesn_stopped', 3, { interrupted: true, stop_reason: { type: 'interrupted' } }),
  session('sesn_run', 4, { status: 'running', stop_reason: null }),
];

let view: ReturnType<typeof render> | undefined;
afterEach(() => view?.unmount());

function mount(o: { readonly?: boolean } = {}, ...actions: Action[]) {
  const store = new BoardStore(initialState({ readonly: o.readonly, rows: 20, columns: 100 }));
  store.dispatch({ type: 'sessions.upsert', items: FLEET, at: now });
  store.dispatch({ type: 'agents', names: { agent_1: 'reviewer' } });
  for (const a of actions) store.dispatch(a);
  store.publishNow();
  const sink = new FakeSink();
  view = render(<Board store={store} sink={sink} />);
  const frame = () => view!.lastFrame() ?? '';
  const footer = () => frame().split('\n').slice(-2).join(' ');
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      view!.stdin.write(k);
      await new Promise((r) => setImmediate(r));
    }
    await new Promise((r) => setImmediate(r));
  };
  const selected = () => selectedRow(store.getState())?.id;
  return { store, sink, frame, footer, press, selected };
}

describe('svc top keys (ink-testing-library)', () => {
  it('draws the sessions with agent names, and the footer from the key table: i for the running row selected', async () => {
    const v = mount();
    await waitUntil(() => v.frame().includes('sesn_run'), 'the board');
    expect(v.frame()).toMatch(/sesn_run\s+title sesn_run\s+reviewer\s+running/);
    expect(v.frame()).toMatch(/sesn_wait .* waiting \(reply\)\s+waiting on a human/);
    expect(v.footer()).toContain('i interrupt');
    expect(v.footer()).toContain('q quit');
    expect(v.footer()).not.toContain('c continue');
  });

  it('j and the arrows move; the footer follows the selected row (c for an interrupted one, y/n for one waiting)', async () => {
    const v = mount();
    await v.press('j');
    expect(v.selected()).toBe('sesn_stopped');
    expect(v.footer()).toContain('c continue');
    expect(v.footer()).not.toContain('i interrupt');
    await v.press(KEY.down);
    expect(v.selected()).toBe('sesn_wait');
    expect(v.footer()).toMatch(/y allow · n deny/);
    await v.press(KEY.up, 'k');
    expect(v.selected()).toBe('sesn_run');
  });

  it('i interrupts the selected session; c continues the interrupted one', async () => {
    const v = mount();
    await v.press('i', 'j', 'c');
    expect(v.sink.calls).toEqual([
      ['interrupt', ['sesn_run']],
      ['continue', ['sesn_stopped']],
    ]);
  });

  it('space marks rows; a asks before archiving the marked ones, y archives them, and n cancels', async () => {
    const v = mount();
    await v.press(' ', ' ');
    expect(v.frame()).toContain('2 marked');
    await v.press('a');
    expect(v.frame()).toMatch(/archive 2 sessions \(sesn_run, sesn_stopped\)\? y archives, n cancels/);
    expect(v.sink.calls).toEqual([]);
    await v.press('n');
    expect(v.frame()).not.toContain('y archives');
    expect(v.sink.calls).toEqual([]);
    await v.press('a', 'y');
    expect(v.sink.calls).toEqual([['archive', ['sesn_run', 'sesn_stopped']]]);
  });

  it('y and n answer the selected waiting session; in a question y means yes, not allow', async () => {
    const v = mount();
    await v.press('G', 'k');
    expect(v.selected()).toBe('sesn_wait');
    await v.press('y', 'n');
    expect(v.sink.calls).toEqual([
      ['answer', 'sesn_wait', 'allow'],
      ['answer', 'sesn_wait', 'deny'],
    ]);
  });

  it('/ filters by typed text (each letter redraws), Enter keeps it, Esc clears it', async () => {
    const v = mount();
    await v.press('/', 'w', 'a', 'i', 'x', KEY.backspace);
    expect(v.frame()).toContain('filter: wai');
    expect(v.frame()).toContain('1 of 4 rows');
    expect(v.frame()).not.toContain('sesn_run');
    // Typing into the filter is not a key: q here is a letter of it.
    await v.press(KEY.enter);
    expect(v.sink.calls).toEqual([]);
    expect(v.selected()).toBe('sesn_wait');
    await v.press(KEY.esc);
    expect(v.frame()).toContain('sesn_run');
  });

  it('keys that arrive in one read are handled one by one: /wait and Enter typed at once keep the filter', async () => {
    const v = mount();
    await v.press('/wait\r');
    expect(v.store.getState().filtering).toBe(false);
    expect(v.frame()).toContain('filter: wait');
    expect(v.frame()).toContain('1 of 4 rows');
  });

  it('s cycles the sort order, named in the header and the footer', async () => {
    const v = mount();
    expect(v.frame()).toContain('sort: updated');
    await v.press('s');
    expect(v.frame()).toContain('sort: status');
  });

  it('--readonly turns the write keys off: no i, c, a, y or n in the footer, and pressing them sends nothing', async () => {
    const v = mount({ readonly: true });
    expect(v.footer()).not.toMatch(/interrupt|archive|allow/);
    await v.press('i', 'a', 'y', 'j', 'c', 'j', 'y', 'n');
    expect(v.sink.calls).toEqual([]);
    expect(v.frame()).not.toContain('archive 1 session');
  });

  it('Enter opens the selected session; q quits; Ctrl-C aborts', async () => {
    const v = mount();
    await v.press('j', KEY.enter, 'q', KEY.ctrlC);
    expect(v.sink.calls).toEqual([['open', 'sesn_stopped'], ['quit'], ['abort']]);
  });

  it('1 2 3 switch views; ? shows every key and closes again', async () => {
    const v = mount();
    await v.press('2');
    expect(v.frame()).toContain('no environment: start svc top with --environment ENV');
    await v.press('3');
    expect(v.frame()).toMatch(/NAME\s+AGENT\s+STATUS\s+LAST RUN/);
    await v.press('1', '?');
    expect(v.frame()).toContain("allow or deny the selected session's oldest awaited tool confirmation");
    expect(v.footer()).toContain('close help');
    await v.press('?');
    expect(v.frame()).toContain('sesn_run');
  });

  it('a failed write shows one line in the footer and the row keeps its state', async () => {
    const v = mount({}, { type: 'busy', ids: ['sesn_run'], text: 'archiving…' });
    expect(v.frame()).toMatch(/sesn_run .* running\s+archiving…/);
    v.store.dispatch({ type: 'done', ids: ['sesn_run'], ok: [], notice: { text: 'archive failed for sesn_run: the service said no', level: 'error' } });
    v.store.publishNow();
    await waitUntil(() => v.frame().includes('archive failed for sesn_run'), 'the footer line');
    expect(v.frame()).toMatch(/sesn_run .* running\s+running/);
  });
});

describe('the board store', () => {
  it('publishes at most once per frame however fast actions come (at most 10 redraws a second)', async () => {
    let clock = 0;
    const store = new BoardStore(initialState(), 100, () => clock);
    let drawn = 0;
    store.subscribe(() => drawn++);
    for (let i = 0; i < 1000; i++) store.dispatch({ type: 'sessions.upsert', items: [session(`s${i}`, i)], at: i });
    await new Promise((r) => setTimeout(r, 0));
    expect(drawn).toBe(1);
    clock = 50;
    store.dispatch({ type: 'sessions.upsert', items: [session('late', 9)], at: 9 });
    await new Promise((r) => setTimeout(r, 10));
    expect(drawn).toBe(1);
    await waitUntil(() => drawn === 2, 'the next frame');
    store.close();
  });
});
