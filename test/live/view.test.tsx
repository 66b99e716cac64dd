import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveApp } from '../../src/live/components/App';
import { KEYS } from '../../src/live/keys';
import { initialState, type Action } from '../../src/live/reducer';
import type { ActionSink } from '../../src/live/sink';
import { FRAME_MS, LiveStore } from '../../src/live/store';
import { waitUntil } from '../helpers/sse';
import { delta, ev, live, text } from './fixtures';

/** A sink that records what the view asked for. */
class FakeSink implements ActionSink {
  calls: unknown[][] = [];
  interrupt(epoch: string | undefined) {
    this.calls.push(['interrupt', epoch]);
  }
  continue() {
    this.calls.push(['continue']);
  }
  send(text: string, mode: string) {
    this.calls.push(['send', text, mode]);
  }
  confirm(eventId: string, result: string) {
    this.calls.push(['confirm', eventId, result]);
  }
  quit() {
    this.calls.push(['quit']);
  }
  abort() {
    this.calls.push(['abort']);
  }
}

const KEY = { enter: '\r', tab: '\t', esc: '\u001b', backspace: '\u007f', ctrlC: '\u0003' };
let view: ReturnType<typeof render> | undefined;
afterEach(() => view?.unmount());

function mount(...actions: Action[]) {
  return mountWith({}, ...actions);
}

function mountWith(o: { color?: boolean; readonly?: boolean }, ...actions: Action[]) {
  const store = new LiveStore(initialState('sess_live', { readonly: o.readonly }));
  const sink = new FakeSink();
  store.dispatch({ type: 'stream', item: live, at: 0 });
  for (const a of actions) store.dispatch(a);
  store.publishNow();
  view = render(<LiveApp store={store} sink={sink} color={o.color} />);
  /** The live area as last drawn (finished items are separate writes above it). */
  const frame = () => view!.frames.filter((f) => f.includes('│ epoch')).at(-1) ?? '';
  /** Everything written: finished items are written once, above the live area, so they are in one frame only. */
  const all = () => view!.frames.join('\n');
  const footer = () => frame().split('\n').at(-1) ?? '';
  /** Types keys one by one, as a terminal delivers them. */
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      view!.stdin.write(k);
      await new Promise((r) => setImmediate(r));
    }
  };
  const until = (pred: (f: string) => boolean, what: string) => waitUntil(() => pred(frame()), what, 3000);
  const untilWritten = (pred: (f: string) => boolean, what: string) => waitUntil(() => pred(all()), what, 3000);
  return { store, sink, frame, all, footer, press, until, untilWritten };
}

const stream = (item: Parameters<typeof ev>[0] extends string ? ReturnType<typeof ev> : never, at = 0): Action => ({ type: 'stream', item, at });
const session = (o: Record<string, unknown>): Action => ({ type: 'session', session: { status: 'running', control_epoch: '3', ...o } });

describe('live view keys (docs/behaviour.md "The live view")', () => {
  it('i interrupts with the known epoch (R-SESS-27)', async () => {
    const v = mount(session({}));
    expect(v.footer()).toContain('i interrupt');
    await v.press('i');
    expect(v.sink.calls).toEqual([['interrupt', '3']]);
  });

  it('i does not apply while the session is interrupted; c continues it', async () => {
    const v = mount(session({ status: 'idle', interrupted: true }));
    expect(v.footer()).not.toContain('interrupt');
    expect(v.footer()).toContain('c continue');
    await v.press('i', 'c');
    expect(v.sink.calls).toEqual([['continue']]);
  });

  it('R-SESS-27 i is neither offered nor taken on an idle session with nothing to stop; queued input makes it apply', async () => {
    const v = mount(session({ status: 'idle', stop_reason: { type: 'end_turn' } }), { type: 'pending', count: 0 });
    await v.until((f) => f.includes('idle │ epoch 3'), 'the idle session');
    expect(v.footer()).toBe('m message · d hide deltas · q quit');
    await v.press('i');
    expect(v.sink.calls).toEqual([]);
    // A queued message is about to start a turn: now an interrupt has something to stop.
    v.store.dispatch({ type: 'pending', count: 1 });
    await v.until((f) => f.includes('pending 1'), 'the queued input');
    expect(v.footer()).toContain('i interrupt');
    await v.press('i');
    expect(v.sink.calls).toEqual([['interrupt', '3']]);
  });

  it('c does not apply while continue is pending', async () => {
    const v = mount(session({ status: 'idle', interrupted: true, continue_pending: true }));
    expect(v.frame()).toContain('continue pending');
    expect(v.footer()).not.toContain('c continue');
    await v.press('c');
    expect(v.sink.calls).toEqual([]);
  });

  it('m opens the composer; Enter sends next_turn', async () => {
    const v = mount(session({}));
    await v.press('m', 'h', 'i', ' ', 'q');
    await v.until((f) => f.includes('next_turn› hi q'), 'the draft');
    expect(v.footer()).toContain('Enter send (next_turn)');
    expect(v.footer()).not.toContain('q quit');
    await v.press(KEY.enter);
    expect(v.sink.calls).toEqual([['send', 'hi q', 'next_turn']]);
    await v.until((f) => !f.includes('next_turn›') && f.includes('m message'), 'the composer closed');
  });

  it('Tab switches the draft to steer and Enter sends it as steer', async () => {
    const v = mount(session({}));
    await v.press('m', 'g', 'o', KEY.tab);
    await v.until((f) => f.includes('steer› go'), 'steer mode');
    expect(v.footer()).toContain('Tab next_turn');
    await v.press(KEY.enter);
    expect(v.sink.calls).toEqual([['send', 'go', 'steer']]);
  });

  it('Esc cancels the draft without sending; Backspace edits it', async () => {
    const v = mount(session({}));
    await v.press('m', 'a', 'b', KEY.backspace);
    await v.until((f) => f.includes('next_turn› a') && !f.includes('next_turn› ab'), 'the edited draft');
    await v.press(KEY.esc);
    await v.until((f) => !f.includes('next_turn›'), 'the composer closed');
    expect(v.sink.calls).toEqual([]);
  });

  it('issue 26: text and Enter in one read (a fast typist over ssh) send the text at that Enter, not a newline at the next', async () => {
    const v = mount(session({}));
    await v.press('m', 'hi there\r');
    expect(v.sink.calls).toEqual([['send', 'hi there', 'next_turn']]);
    await v.until((f) => !f.includes('next_turn›'), 'the composer closed');
  });

  it('issue 26: every key of one read is handled, in order: tt cycles the thread filter twice, mhi⏎ composes and sends', async () => {
    const v = mount(session({}), stream(ev('session.thread_created', { thread_id: 'th_1', agent_name: 'worker-1' }, { session_thread_id: 'th_1' })));
    await v.until((f) => f.includes('t thread: all'), 'the thread key');
    await v.press('tt');
    await v.until((f) => f.includes('t thread: worker-1'), 'the filter cycled twice');
    await v.press('mhi\r');
    expect(v.sink.calls).toEqual([['send', 'hi', 'next_turn']]);
  });

  it('issue 26: a bracketed paste reaches the composer as text, line breaks kept; outside the composer it is no keys at all', async () => {
    const v = mount(session({}));
    await v.press('\u001b[200~qiq\r\u001b[201~');
    expect(v.sink.calls).toEqual([]);
    await v.press('m', '\u001b[200~line one\r\nline\ttwo\r\u001b[201~');
    await v.until((f) => f.includes('next_turn› line one\nline two'), 'the pasted draft');
    expect(v.sink.calls).toEqual([]);
    await v.press(KEY.enter);
    expect(v.sink.calls).toEqual([['send', 'line one\nline two\n', 'next_turn']]);
  });

  it('y allows and n denies the oldest awaited confirmation, one after the other (R-SESS-14)', async () => {
    const v = mount(
      session({}),
      stream(ev('agent.tool_use', { name: 'bash', input: { cmd: 'ls' }, permission: 'ask' }, { id: 'tu_1' })),
      stream(ev('agent.tool_use', { name: 'write', input: {}, permission: 'ask' }, { id: 'tu_2' })),
    );
    await v.until((f) => f.includes('awaiting confirmation: bash {"cmd":"ls"} (+1 more)'), 'the prompt');
    expect(v.footer()).toContain('y allow bash · n deny bash');
    await v.press('y');
    await v.until((f) => f.includes('awaiting confirmation: write'), 'the next confirmation');
    await v.press('n');
    expect(v.sink.calls).toEqual([
      ['confirm', 'tu_1', 'allow'],
      ['confirm', 'tu_2', 'deny'],
    ]);
    await v.until((f) => !f.includes('awaiting confirmation:'), 'no prompt left');
    expect(v.footer()).not.toContain('allow');
  });

  it('y and n do nothing when no confirmation is awaited', async () => {
    const v = mount(session({}));
    expect(v.footer()).not.toMatch(/allow|deny/);
    await v.press('y', 'n');
    expect(v.sink.calls).toEqual([]);
  });

  it('t cycles the thread filter and only the chosen thread is shown from then on', async () => {
    const v = mount(
      session({}),
      stream(ev('session.thread_created', { thread_id: 'th_1', agent_name: 'worker-1' }, { session_thread_id: 'th_1' })),
      stream(ev('session.thread_created', { thread_id: 'th_2', agent_name: 'worker-2' }, { session_thread_id: 'th_2' })),
    );
    await v.until((f) => f.includes('threads: main → worker-1 running, worker-2 running'), 'the thread tree');
    expect(v.footer()).toContain('t thread: all');
    await v.press('t', 't');
    await v.until((f) => f.includes('showing worker-1'), 'the filter on worker-1');
    v.store.dispatch(stream(ev('agent.message', text('from one'), { session_thread_id: 'th_1' })));
    v.store.dispatch(stream(ev('agent.message', text('from two'), { session_thread_id: 'th_2' })));
    v.store.dispatch(stream(ev('agent.message', text('from main'))));
    await v.untilWritten((f) => f.includes('[worker-1] from one'), 'the worker-1 message');
    expect(v.all()).not.toContain('from two');
    expect(v.all()).not.toContain('from main');
    expect(v.sink.calls).toEqual([]);
  });

  it('a filter change writes a marker into the transcript; lines received before it keep the old filter', async () => {
    const v = mount(
      session({}),
      stream(ev('session.thread_created', { thread_id: 'th_1', agent_name: 'worker-1' }, { session_thread_id: 'th_1' })),
      stream(ev('session.thread_created', { thread_id: 'th_2', agent_name: 'worker-2' }, { session_thread_id: 'th_2' })),
    );
    await v.until((f) => f.includes('showing all │ threads: main → worker-1 running'), 'the header naming the filter');
    await v.press('t');
    await v.untilWritten((f) => f.includes('── showing the main thread from here ──'), 'the main marker');
    await v.until((f) => f.includes('showing main │ threads:'), 'the header on main');
    await v.press('t');
    await v.untilWritten((f) => f.includes('── showing thread worker-1 from here ──'), 'the worker-1 marker');
    // Received under worker-1, then the filter moves on to worker-2 before the next frame: each line keeps its own filter.
    v.store.dispatch(stream(ev('agent.message', text('two, before'), { session_thread_id: 'th_2' })));
    v.store.dispatch({ type: 'filter.cycle' });
    v.store.dispatch(stream(ev('agent.message', text('two, after'), { session_thread_id: 'th_2' })));
    await v.untilWritten((f) => f.includes('[worker-2] two, after'), 'the worker-2 message');
    await v.until((f) => f.includes('showing worker-2 │ threads:'), 'the header on worker-2');
    const all = v.all();
    expect(all).not.toContain('two, before');
    expect(all.indexOf('── showing thread worker-2 from here ──')).toBeLessThan(all.indexOf('[worker-2] two, after'));
  });

  it('t does not apply without child threads', async () => {
    const v = mount(session({}));
    expect(v.footer()).not.toContain('thread');
  });

  it('d toggles the delta preview (R-EVT-15: the complete event replaces it)', async () => {
    const v = mount(session({}), stream(delta({ kind: 'text', delta: 'partial repl' })));
    await v.until((f) => f.includes('partial repl▍'), 'the preview');
    expect(v.footer()).toContain('d hide deltas');
    await v.press('d');
    await v.until((f) => !f.includes('partial repl'), 'the preview hidden');
    expect(v.footer()).toContain('d show deltas');
    await v.press('d');
    v.store.dispatch(stream(delta({ kind: 'text', delta: 'again' })));
    await v.until((f) => f.includes('again▍'), 'previews shown again');
    v.store.dispatch(stream(ev('agent.message', text('again, complete'))));
    await v.until((f) => !f.includes('again▍'), 'the preview replaced');
    expect(v.all()).toContain('again, complete');
  });

  it('q quits, leaving the session alone', async () => {
    const v = mount(session({}));
    await v.press('q');
    expect(v.sink.calls).toEqual([['quit']]);
  });

  it('Ctrl-C leaves as an interruption (exit 130, where q is 0), even while composing', async () => {
    const v = mount(session({}));
    await v.press('m', KEY.ctrlC);
    expect(v.sink.calls).toEqual([['abort']]);
  });
});

describe('live view footer and body', () => {
  it('the footer shows exactly the keys of the table that apply now', async () => {
    const v = mount(session({}));
    expect(v.footer()).toBe('i interrupt · m message · d hide deltas · q quit');
    const visible = KEYS.filter((k) => !k.hidden?.(v.store.getState()) && k.when(v.store.getState())).map((k) => k.key);
    expect(visible).toEqual(['i', 'm', 'd', 'q']);
  });

  it('once the view has closed, the last frame says how instead of showing keys', async () => {
    const v = mount(session({}), { type: 'compose.open' });
    await v.until((f) => f.includes('next_turn›'), 'the composer');
    v.store.dispatch({ type: 'ended', text: 'left the view; the session keeps running' });
    await v.until((f) => f.includes('left the view'), 'the closing frame');
    expect(v.footer()).toBe('left the view; the session keeps running');
    expect(v.frame()).not.toMatch(/next_turn›|q quit|Ctrl-C/);
  });

  it('a terminated session offers neither interrupt, continue nor message', async () => {
    const v = mount(session({ status: 'terminated' }));
    expect(v.footer()).toBe('d hide deltas · q quit');
  });

  it('read-only (opened from svc top --readonly): i, c, m, y and n are neither offered nor taken', async () => {
    const awaited = stream(ev('agent.tool_use', { name: 'bash', input: {}, permission: 'ask' }, { id: 'sevt_ask' }));
    const v = mountWith({ readonly: true }, session({ status: 'running' }), awaited);
    expect(v.footer()).toBe('read-only d hide deltas · q quit');
    await v.press('i', 'c', 'y', 'n', 'm', 'h', 'i', KEY.enter);
    expect(v.sink.calls).toEqual([]);
    expect(v.frame()).not.toContain('next_turn›');
    view!.unmount();
    const interrupted = mountWith({ readonly: true }, session({ status: 'idle', interrupted: true }));
    await interrupted.press('c');
    expect(interrupted.sink.calls).toEqual([]);
    expect(interrupted.footer()).toBe('read-only d hide deltas · q quit');
  });

  it('the header shows session, status, epoch, connection, pending inputs, events and TTFT', async () => {
    const v = mount(
      session({ title: 'Review', status: 'running', control_epoch: '12' }),
      { type: 'pending', count: 2 },
      { type: 'stream', item: ev('agent.model_started', { model: 'm' }, { processed_at: '2026-09-01T00:00:01.000Z' }), at: 1000 },
      { type: 'stream', item: ev('agent.message_started', undefined, { processed_at: '2026-09-01T00:00:01.120Z' }), at: 1100 },
      { type: 'stream', item: delta({ kind: 'text', delta: 'x' }), at: 1120 },
      { type: 'stream', item: { kind: 'connection', state: { kind: 'reconnecting', attempt: 3, reason: 'reset' } }, at: 1200 },
    );
    await v.until((f) => f.includes('reconnecting (attempt 3)'), 'the header');
    expect(v.frame()).toContain('sess_live "Review" │ running │ epoch 12\nreconnecting (attempt 3) │ pending 2 │ events 2 │ ttft 120 ms');
  });

  it('issue 26: while reconnecting the header shows the attempt and counts down to the next try', async () => {
    const v = mount({
      type: 'stream',
      item: { kind: 'connection', state: { kind: 'reconnecting', attempt: 7, reason: 'reset', retryInMs: 2500 } },
      at: Date.now(),
    });
    await v.until((f) => f.includes('reconnecting (attempt 7, next try in 3s)'), 'the next try');
    await v.until((f) => f.includes('reconnecting (attempt 7, next try in 2s)'), 'a second later');
  });

  it('issue 26: a preview cut by a reconnect says its start was lost before the fragments that follow', async () => {
    const v = mount(
      stream(delta({ kind: 'text', delta: 'The quick brown ' })),
      stream({ kind: 'connection', state: { kind: 'reconnecting', attempt: 1, reason: 'reset' } } as never),
      stream(live as never),
      stream(delta({ kind: 'text', delta: 'fox jumps' })),
    );
    await v.until((f) => f.includes('[reconnected: the start of this preview was lost; the complete event will replace it] …fox jumps▍'), 'the marked preview');
    expect(v.frame()).not.toContain('The quick brown');
  });

  it('issue 44: leaving mid-stream (the stream closed, no reconnect) keeps what streamed in the last frame, marked partial', async () => {
    const v = mount(
      stream(delta({ kind: 'text', delta: 'The quick brown ' })),
      stream(delta({ kind: 'text', delta: 'fox jumps' })),
      stream({ kind: 'connection', state: { kind: 'closed' } } as never),
    );
    await v.until((f) => f.includes('The quick brown fox jumps [partial: the stream closed here]'), 'the partial preview');
    expect(v.frame()).not.toContain('reconnected');
    expect(v.frame()).not.toContain('▍');
  });

  it('finished items are printed once, in order: text, thinking, tools with input, summarised results, red errors, thread tags', async () => {
    const v = mount(session({}));
    const items = [
      ev('user.message', text('please review')),
      ev('agent.thinking', text('let me think')),
      ev('agent.tool_use', { name: 'read', input: { path: 'a.ts' }, permission: 'allow' }, { id: 'tu' }),
      ev('agent.tool_result', { event_id: 'tu', tool_result: { content: [{ type: 'text', text: 'line1\nline2' }, { type: 'image' }] } }),
      ev('session.thread_created', { thread_id: 'th_1', agent_name: 'worker-1' }, { session_thread_id: 'th_1' }),
      ev('agent.message', text('child says hi'), { session_thread_id: 'th_1' }),
      ev('session.error', { error_type: 'model_overloaded', message: 'try later' }),
      ev('agent.message', text('All good.')),
    ];
    for (const item of items) v.store.dispatch(stream(item));
    await v.untilWritten((f) => f.includes('All good.'), 'the last item');
    const f = v.all();
    const order = [
      'you› please review',
      'let me think',
      'tool read {"path":"a.ts"}',
      '↳ tool result: line1 line2 (+1 more)',
      '[worker-1] thread started',
      '[worker-1] child says hi',
      'error model_overloaded: try later',
      'All good.',
    ];
    let at = -1;
    for (const o of order) {
      const i = f.indexOf(o);
      expect(i, o).toBeGreaterThan(at);
      at = i;
    }
    // Printed once, and gone from the store once written (bounded memory).
    expect(f.split('please review').length).toBe(2);
    expect(f.split('All good.').length).toBe(2);
    await waitUntil(() => v.store.getState().finished.length === 0, 'the flushed items dropped');
  });

  it('with colour on, errors are red, thinking dim and thread tags cyan', async () => {
    const v = mountWith({ color: true }, session({}));
    v.store.dispatch(stream(ev('agent.thinking', text('hmm'))));
    v.store.dispatch(stream(ev('session.error', { error_type: 'boom', message: 'bad' })));
    v.store.dispatch(stream(ev('agent.message', text('howdy'), { session_thread_id: 'th_1' })));
    await v.untilWritten((f) => f.includes('howdy'), 'the items');
    expect(v.all()).toContain('\u001b[2mhmm\u001b[22m');
    expect(v.all()).toContain('\u001b[31merror boom: bad\u001b[39m');
    expect(v.all()).toContain('\u001b[36m[th_1] \u001b[39mhowdy');
  });

  it('renders at most ~30 frames per second however fast deltas arrive (counted on a fake clock)', async () => {
    // The store's frame timer and its clock are fake: the count of frames is against time the test sets, not measured.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const v = mount(session({}));
      const before = v.store.getSnapshot();
      let publishes = 0;
      const unsubscribe = v.store.subscribe(() => publishes++);
      const started = Date.now();
      // A burst in one instant draws nothing until its frame.
      for (let i = 0; i < 1000; i++) v.store.dispatch(stream(delta({ kind: 'text', delta: `w${i} ` })));
      expect(v.store.getSnapshot()).toBe(before);
      // Then a delta every millisecond for a second.
      for (let i = 1000; i < 2000; i++) {
        v.store.dispatch(stream(delta({ kind: 'text', delta: `w${i} ` })));
        await vi.advanceTimersByTimeAsync(1);
      }
      await vi.advanceTimersByTimeAsync(FRAME_MS);
      const elapsed = Date.now() - started;
      unsubscribe();
      expect(v.frame()).toContain('w1999 ▍');
      expect(elapsed).toBe(1000 + FRAME_MS);
      expect(publishes).toBeLessThanOrEqual(Math.ceil(elapsed / FRAME_MS) + 1);
      // Not starved either: a frame for about every FRAME_MS.
      expect(publishes).toBeGreaterThanOrEqual(Math.floor(elapsed / FRAME_MS) - 1);
    } finally {
      vi.useRealTimers();
    }
  });
});
