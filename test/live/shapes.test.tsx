/** The live view on the service's real shapes (issue 13), on hostile text from it, and the lines its control actions leave (issue 17). */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveApp } from '../../src/live/components/App';
import { formatItem } from '../../src/live/items';
import { initialState, nextConfirmation, reduce, type Action, type ViewState } from '../../src/live/reducer';
import type { ActionSink } from '../../src/live/sink';
import { LiveStore } from '../../src/live/store';
import type { StreamItem } from '../../src/api/stream/types';
import { waitUntil } from '../helpers/sse';
import { apply, delta, ev, feed, live, text } from './fixtures';

const start = () => feed(initialState('sess_1'), [live]);
// What the transcript writes: quiet items carry only a state (accessible mode writes it).
const lines = (s: ViewState) => s.finished.filter((i) => !i.quiet).map(formatItem);
/** An event with members at its top level, as the public API's SDK shows them (no `data`). */
const flat = (o: Record<string, unknown>): StreamItem => {
  const event = { id: `sevt_${Math.random().toString(36).slice(2)}`, processed_at: '2026-09-01T00:00:00Z', ...o } as never;
  return { kind: 'event', event, raw: JSON.stringify(event) };
};

/** The SDK's shapes of one turn: MCP tool events, suffixed statuses, thread events carrying their agent's name. */
const realTurn: StreamItem[] = [
  flat({ type: 'session.status_running' }),
  flat({ type: 'agent.mcp_tool_use', id: 'mcp_1', name: 'search', mcp_server_name: 'docs', input: { q: 'epochs' }, evaluated_permission: 'ask' }),
  flat({ type: 'agent.mcp_tool_result', mcp_tool_use_id: 'mcp_1', content: [{ type: 'text', text: 'three hits' }], is_error: false }),
  flat({ type: 'agent.message', session_thread_id: 'sthr_9', agent_name: 'researcher', content: [{ type: 'text', text: 'found it' }] }),
  flat({ type: 'session.thread_status_idle', session_thread_id: 'sthr_9', agent_name: 'researcher' }),
  flat({ type: 'session.thread_status_running', session_thread_id: 'sthr_8', agent_name: 'writer' }),
  ev('session.thread_status', { thread_id: 'sthr_8', status: 'canceled' }, { session_thread_id: 'sthr_8' }),
  flat({ type: 'session.status_idle', stop_reason: { type: 'retries_exhausted' } }),
];

describe("live view reducer: the service's real shapes (issue 13)", () => {
  it('MCP tool events, suffixed statuses, agent-named threads and "canceled" are read as the spec\'s events', () => {
    let s = feed(start(), realTurn.slice(0, 2));
    // The MCP call asks for a confirmation like any tool call.
    expect(nextConfirmation(s)).toMatchObject({ eventId: 'mcp_1', name: 'search', input: { q: 'epochs' } });
    expect(s.status).toBe('running');
    s = feed(s, realTurn.slice(2));
    expect(s.confirmations).toEqual([]);
    expect(s.threads).toEqual([
      { id: 'sthr_9', name: 'researcher', status: 'idle' },
      { id: 'sthr_8', name: 'writer', status: 'cancelled' },
    ]);
    expect(s.status).toBe('idle');
    expect(s.stopReason).toEqual({ type: 'retries_exhausted' });
    expect(lines(s)).toEqual([
      'tool search (docs): {"q":"epochs"}  awaiting confirmation',
      'tool result: three hits',
      '[researcher] agent: found it',
      '[researcher] thread idle',
      '[writer] thread cancelled',
      'idle: retries_exhausted',
    ]);
    expect(s.finished.at(-1)?.error).toBe(true);
  });

  it('each new stop reason reads as an idle turn with its reason; none is fatal', () => {
    for (const type of ['retries_exhausted', 'budget_reached', 'refusal']) {
      const s = feed(start(), [ev('session.status', { status: 'idle', stop_reason: { type } })]);
      expect(s.status).toBe('idle');
      expect(lines(s)).toEqual([`idle: ${type}`]);
    }
  });
});

const sink: ActionSink = { interrupt() {}, continue() {}, send() {}, confirm() {}, quit() {}, abort() {} };
let view: ReturnType<typeof render> | undefined;
afterEach(() => view?.unmount());

function mount(...actions: Action[]) {
  const store = new LiveStore(initialState('sess_shapes'));
  store.dispatch({ type: 'stream', item: live, at: 0 });
  for (const a of actions) store.dispatch(a);
  store.publishNow();
  view = render(<LiveApp store={store} sink={sink} />);
  const frame = () => view!.frames.filter((f) => f.includes('│ epoch')).at(-1) ?? '';
  const all = () => view!.frames.join('\n');
  return { store, frame, all };
}
const stream = (item: StreamItem): Action => ({ type: 'stream', item, at: 0 });

describe('live view frames on the real shapes and on hostile text (issue 13)', () => {
  it('a rendered frame of the real shapes: threads tagged by agent name, the derived state (failed, with the stop) in the header', async () => {
    const v = mount({ type: 'session', session: { status: 'running', control_epoch: '2' } }, ...realTurn.map(stream));
    await waitUntil(() => v.all().includes('idle: retries_exhausted'), 'the last item', 3000);
    await waitUntil(() => v.frame().includes('failed (retries_exhausted) │ epoch 2'), 'the header', 3000);
    expect(v.all()).toContain('tool search (docs) {"q":"epochs"}  awaiting confirmation');
    expect(v.all()).toContain('[researcher] found it');
    expect(v.frame()).toContain('threads: main → researcher idle, writer cancelled');
  });

  it('control characters from the service (ESC sequences, BEL, OSC title) are shown escaped, never written raw', async () => {
    const osc = '\u001b]0;owned\u0007';
    const v = mount(
      { type: 'session', session: { status: 'running', control_epoch: '1', title: `t${osc}` } },
      stream(ev('agent.message', text(`red \u001b[31malert\u001b[0m bell\u0007 ${osc} back\rover`))),
      stream(ev('agent.tool_use', { name: `sh${osc}`, input: { cmd: 'x\u001b[2J' }, permission: 'ask' }, { id: 'tu_x' })),
      stream(ev('session.thread_created', { thread_id: 'th_e', agent_name: `w\u001b[1A` }, { session_thread_id: 'th_e' })),
      stream(delta({ kind: 'text', delta: `live\u001b[2Kpreview\u009b` })),
    );
    await waitUntil(() => v.all().includes('over'), 'the message', 3000);
    await waitUntil(() => v.frame().includes('preview'), 'the preview', 3000);
    const out = v.all();
    // Colour is off here: not one escape, bell, carriage return or C1 control reaches the terminal.
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(out).toContain('red \\x1b[31malert\\x1b[0m bell\\x07 \\x1b]0;owned\\x07 back\\x0dover');
    expect(out).toContain('\\x1b]0;owned\\x07');
    expect(v.frame()).toContain('live\\x1b[2Kpreview\\x9b');
    expect(v.frame()).toContain('"t\\x1b]0;owned\\x07"');
  });
});

describe('control actions leave one transcript line (issue 17)', () => {
  it('the line names what happened and the epoch, and clears the in-flight notice', () => {
    const s = apply(start(), { type: 'notice', text: 'interrupting…' }, { type: 'control', text: 'interrupted (epoch 1)' });
    expect(s.notice).toBeUndefined();
    expect(lines(s)).toEqual(['interrupted (epoch 1)']);
    expect(s.finished[0].kind).toBe('control');
  });

  it('a read that left before a newer epoch was seen does not take the epoch back', () => {
    const s = reduce(apply(start(), { type: 'epoch', epoch: '3' }), { type: 'session', session: { status: 'idle', control_epoch: '2' } });
    expect(s.epoch).toBe('3');
  });
});
