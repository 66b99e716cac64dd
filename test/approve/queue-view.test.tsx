import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { initialQueue, itemKey, ordered, reduce, selectedItem, type QueueItem, type QueueState } from '../../src/approve/queue';
import type { QueueSink } from '../../src/approve/view/input';
import { Queue } from '../../src/approve/view/Queue';
import { QueueStore } from '../../src/approve/view/store';
import { waitUntil } from '../helpers/sse';

const item = (sid: string, tool: string, askedAt: number, input: unknown = {}): QueueItem => ({
  key: itemKey(sid, `sevt_${sid}`),
  sessionId: sid,
  agent: 'reviewer',
  eventId: `sevt_${sid}`,
  tool,
  input,
  askedAt,
});
const A = item('sesn_a', 'bash', 1000, { command: 'ls' });
const B = item('sesn_b', 'read', 2000, { path: '/etc/hosts' });
const C = item('sesn_c', 'deploy', 3000, { target: 'prod' });
const run = (s: QueueState, ...actions: Parameters<typeof reduce>[1][]) => actions.reduce(reduce, s);

describe('the queue reducer', () => {
  it('oldest first; skip sends an item last; an item gone from a snapshot that was not answered here was answered elsewhere', () => {
    let s = run(initialQueue({ readonly: false }), { type: 'snapshot', items: [C, A, B] });
    expect(ordered(s).map((i) => i.tool)).toEqual(['bash', 'read', 'deploy']);
    expect(selectedItem(s)?.key).toBe(A.key);
    s = reduce(s, { type: 'skip' });
    expect(ordered(s).map((i) => i.tool)).toEqual(['read', 'deploy', 'bash']);
    expect(selectedItem(s)?.key).toBe(B.key);
    s = reduce(s, { type: 'snapshot', items: [A, C] });
    expect(s.notice?.text).toBe('answered elsewhere: read in sesn_b');
    expect(selectedItem(s)?.key).toBe(C.key);
    // One answered here is not "elsewhere".
    s = run(s, { type: 'busy', key: C.key, text: 'allowing…' }, { type: 'answered', key: C.key, gone: true, notice: { text: 'allowed', level: 'info' } });
    s = reduce(s, { type: 'snapshot', items: [A] });
    expect(s.notice?.text).toBe('allowed');
    expect(selectedItem(s)?.key).toBe(A.key);
  });

  it('a deny message is typed and cancelled; read-only asks nothing', () => {
    let s = run(
      initialQueue({ readonly: false }),
      { type: 'snapshot', items: [A] },
      { type: 'denyStart' },
      { type: 'denyType', text: 'no' },
      { type: 'denyType', text: 'pe' },
    );
    expect(s.denying).toEqual({ key: A.key, text: 'nope' });
    s = run(s, { type: 'denyBackspace' }, { type: 'denyCancel' });
    expect(s.denying).toBeUndefined();
    expect(run(initialQueue({ readonly: true }), { type: 'snapshot', items: [A] }, { type: 'denyStart' }).denying).toBeUndefined();
  });
});

class Sink implements QueueSink {
  calls: unknown[][] = [];
  answer(sessionId: string, eventId: string, _key: string, result: string, message?: string) {
    this.calls.push(['answer', sessionId, eventId, result, message]);
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

const KEY = { enter: '\r', esc: '\u001b', down: '\u001b[B' };
let view: ReturnType<typeof render> | undefined;
afterEach(() => view?.unmount());

describe('the queue on screen (ink-testing-library)', () => {
  it('y allows, n asks for a message then denies with it, s skips, Enter opens, ? shows the keys', async () => {
    const store = new QueueStore(initialQueue({ readonly: false }), 0);
    store.dispatch({ type: 'snapshot', items: [A, B, C] });
    const sink = new Sink();
    view = render(<Queue store={store} sink={sink} />);
    await waitUntil(() => view!.lastFrame()?.includes('3 awaited confirmations'), 'the queue');
    expect(view.lastFrame()).toContain('"command": "ls"');
    expect(view.lastFrame()).toContain('y allow · n deny');
    view.stdin.write('y');
    expect(sink.calls.at(-1)).toEqual(['answer', 'sesn_a', 'sevt_sesn_a', 'allow', undefined]);
    view.stdin.write(KEY.down);
    view.stdin.write('n');
    await waitUntil(() => view!.lastFrame()?.includes('deny: message to the agent'), 'the prompt');
    // Keys while typing are text, not commands.
    view.stdin.write('q');
    view.stdin.write('s');
    view.stdin.write(KEY.enter);
    expect(sink.calls.at(-1)).toEqual(['answer', 'sesn_b', 'sevt_sesn_b', 'deny', 'qs']);
    view.stdin.write('s');
    await waitUntil(() => view!.lastFrame()?.includes('skipped read in sesn_b'), 'the skip');
    view.stdin.write(KEY.enter);
    expect(sink.calls.at(-1)).toEqual(['open', 'sesn_c']);
    view.stdin.write('?');
    await waitUntil(() => view!.lastFrame()?.includes('deny (a message to the agent, optional)'), 'the help');
  });

  it('--readonly: no y or n', async () => {
    const store = new QueueStore(initialQueue({ readonly: true }), 0);
    store.dispatch({ type: 'snapshot', items: [A] });
    const sink = new Sink();
    view = render(<Queue store={store} sink={sink} />);
    await waitUntil(() => view!.lastFrame()?.includes('read-only'), 'the queue');
    view.stdin.write('y');
    view.stdin.write('n');
    expect(sink.calls).toEqual([]);
    expect(view.lastFrame()).not.toContain('y allow');
  });
});
