import { describe, expect, it } from 'vitest';
import { formatItem } from '../../src/live/items';
import { FILTER_ALL, FILTER_MAIN, MAX_UNFLUSHED, PREVIEW_CHARS, initialState, nextConfirmation, reduce } from '../../src/live/reducer';
import { apply, delta, ev, feed, live, text } from './fixtures';

const start = () => feed(initialState('sess_1'), [live]);
// What the transcript writes: quiet items carry only a state (accessible mode writes it).
const lines = (s: ReturnType<typeof start>) => s.finished.filter((i) => !i.quiet).map(formatItem);

describe('live view reducer: user events (R-EVT-2)', () => {
  it('user.message becomes a "you" item with its text', () => {
    const s = feed(start(), [ev('user.message', text('hello there'))]);
    expect(lines(s)).toEqual(['you: hello there']);
    expect(s.eventCount).toBe(1);
  });

  it('R-EVT-30 R-SESS-28 user.interrupt acknowledgement advances the epoch and shows stopping, not interrupted', () => {
    const s = feed(apply(start(), { type: 'epoch', epoch: '4' }), [ev('user.interrupt', undefined, { epoch: '5' })]);
    expect(s.epoch).toBe('5');
    expect(s.stopping).toBe(true);
    expect(s.interrupted).toBe(false);
    // The acknowledgement moves the header; the line is the completed interrupt's (below).
    expect(lines(s)).toEqual([]);
  });

  it('issue 26: an interrupt leaves one line, with the epoch as the service gave it; none when the view sent it (its outcome says it)', () => {
    const acked = [
      ev('user.interrupt', undefined, { epoch: '12345678901234567890' }),
      ev('session.status', { status: 'idle', stop_reason: { type: 'interrupted' } }),
    ];
    const other = feed(apply(start(), { type: 'epoch', epoch: '4' }), acked);
    expect(lines(other)).toEqual(['interrupted (epoch 12345678901234567890)']);
    const own = feed(apply(start(), { type: 'control.start', action: 'interrupt', text: 'interrupting…' }), acked);
    expect(lines(own)).toEqual([]);
    const done = apply(own, { type: 'control', text: 'interrupted (epoch 12345678901234567890): the session has stopped; c continues it' });
    expect(lines(done)).toEqual(['interrupted (epoch 12345678901234567890): the session has stopped; c continues it']);
    expect(done.controlling).toBeUndefined();
  });

  it("R-EVT-30 after a reload each interrupt shows its own event's epoch, not the session's now, and each Continue is a line of its own", () => {
    const stopped = ev('session.status', { status: 'idle', stop_reason: { type: 'interrupted' } });
    // The session read at open says epoch 5; history then replays two interrupts with a Continue between them.
    const reloaded = apply(start(), { type: 'session', session: { status: 'idle', interrupted: true, control_epoch: '5' } });
    const s = feed(reloaded, [
      ev('user.interrupt', undefined, { epoch: '1' }),
      stopped,
      ev('session.status', { status: 'running' }),
      ev('agent.message', text('again')),
      ev('user.interrupt', undefined, { epoch: '4' }),
      stopped,
    ]);
    expect(lines(s)).toEqual(['interrupted (epoch 1)', 'continued (after the interrupt at epoch 1)', 'agent: again', 'interrupted (epoch 4)']);
    expect(s.epoch).toBe('5');
  });

  it('a Continue from elsewhere that writes no event is marked from the session read at a later epoch, once', () => {
    const stopped = feed(start(), [
      ev('user.interrupt', undefined, { epoch: '1' }),
      ev('session.status', { status: 'idle', stop_reason: { type: 'interrupted' } }),
    ]);
    // Reads that do not show a completed Continue mark nothing: still interrupted, pending, or from before the interrupt.
    const pending = apply(
      stopped,
      { type: 'session', session: { status: 'idle', interrupted: true, continue_pending: true, control_epoch: '2' } },
      { type: 'session', session: { status: 'running', interrupted: false, control_epoch: '0' } },
    );
    expect(lines(pending)).toEqual(['interrupted (epoch 1)']);
    const done = apply(pending, { type: 'session', session: { status: 'idle', interrupted: false, control_epoch: '3' } });
    expect(lines(done)).toEqual(['interrupted (epoch 1)', 'continued (epoch 3)']);
    // The status that follows (a queued input starts) is no second mark.
    expect(lines(feed(done, [ev('session.status', { status: 'running' })]))).toEqual(['interrupted (epoch 1)', 'continued (epoch 3)']);
  });

  it("the view's own Continue leaves only its outcome line; a termination after an interrupt is no Continue", () => {
    const stopped = feed(start(), [
      ev('user.interrupt', undefined, { epoch: '1' }),
      ev('session.status', { status: 'idle', stopReason: undefined, stop_reason: { type: 'interrupted' } }),
    ]);
    const own = apply(
      stopped,
      { type: 'control.start', action: 'continue', text: 'continuing…' },
      { type: 'session', session: { status: 'idle', interrupted: false, control_epoch: '3' } },
      { type: 'control', text: 'continued (epoch 3): the session is running again' },
    );
    expect(lines(feed(own, [ev('session.status', { status: 'running' })]))).toEqual([
      'interrupted (epoch 1)',
      'continued (epoch 3): the session is running again',
    ]);
    const archived = feed(stopped, [ev('session.status', { status: 'terminated' })]);
    expect(lines(archived)).toEqual(['interrupted (epoch 1)', 'terminated']);
  });

  it('R-SESS-24 epochs beyond 2^53 compare as digit strings', () => {
    const s = feed(apply(start(), { type: 'epoch', epoch: '9007199254740993' }), [ev('user.interrupt', undefined, { epoch: '9007199254740992' })]);
    expect(s.epoch).toBe('9007199254740993');
    expect(apply(s, { type: 'epoch', epoch: '10000000000000000000' }).epoch).toBe('10000000000000000000');
  });

  it('user.tool_confirmation removes the awaited confirmation and shows the answer', () => {
    let s = feed(start(), [ev('agent.tool_use', { name: 'bash', input: { cmd: 'ls' }, permission: 'ask' }, { id: 'tu_1' })]);
    expect(nextConfirmation(s)?.eventId).toBe('tu_1');
    s = feed(s, [ev('user.tool_confirmation', { event_id: 'tu_1', result: 'deny', deny_message: 'not now' })]);
    expect(s.confirmations).toEqual([]);
    expect(lines(s).at(-1)).toBe('denied: tu_1: not now');
  });

  it('user.custom_tool_result and user.tool_result are summarised', () => {
    const s = feed(start(), [
      ev('user.custom_tool_result', {
        event_id: 'c1',
        content: [
          { type: 'text', text: 'forty-two' },
          { type: 'text', text: 'more' },
        ],
      }),
      ev('user.tool_result', { event_id: 't1', content: [{ type: 'text', text: 'boom' }], is_error: true }),
    ]);
    // The error is said in words, not only in red.
    expect(lines(s)).toEqual(['custom result sent: forty-two (+1 more)', 'tool result sent as an error: boom']);
    expect(s.finished[1].error).toBe(true);
  });
});

describe('live view reducer: agent events (R-EVT-3)', () => {
  it('agent.message and agent.thinking become text items', () => {
    const s = feed(start(), [ev('agent.thinking', text('pondering')), ev('agent.message', text('the answer'))]);
    expect(s.finished.map((i) => [i.kind, i.text])).toEqual([
      ['thinking', 'pondering'],
      ['message', 'the answer'],
    ]);
  });

  it('R-SESS-49 agent.tool_use with permission ask is awaited, oldest first; permission allow is not', () => {
    const s = feed(start(), [
      ev('agent.tool_use', { name: 'read', input: {}, permission: 'allow' }, { id: 'a' }),
      ev('agent.tool_use', { name: 'bash', input: { cmd: 'ls' }, permission: 'ask' }, { id: 'b' }),
      ev('agent.tool_use', { name: 'write', input: { path: 'x' }, permission: 'ask' }, { id: 'c', session_thread_id: 'th_1' }),
    ]);
    expect(s.confirmations.map((c) => c.eventId)).toEqual(['b', 'c']);
    expect(lines(s)[1]).toBe('tool bash: {"cmd":"ls"}  awaiting confirmation');
    const answering = apply(s, { type: 'confirmation.answering', eventId: 'b', answering: true });
    expect(nextConfirmation(answering)?.eventId).toBe('c');
  });

  it('agent.tool_result ends the wait on its call and is summarised, errors flagged', () => {
    const s = feed(start(), [
      ev('agent.tool_use', { name: 'bash', input: {}, permission: 'ask' }, { id: 'tu' }),
      ev('agent.tool_result', {
        event_id: 'tu',
        tool_result: { content: [{ type: 'text', text: 'denied' }], structured_content: [{ type: 'text', text: 'denied' }] },
        is_error: true,
      }),
    ]);
    expect(s.confirmations).toEqual([]);
    expect(s.finished[1]).toMatchObject({ kind: 'tool_result', head: 'tool failed', text: 'denied', error: true });
  });

  it('R-EVT-6 R-EVT-7 agent.tool_result shows its structured_content, else its content', () => {
    const s = feed(start(), [
      ev('agent.tool_result', {
        event_id: 'x',
        tool_result: { content: [{ type: 'text', text: 'for the model' }], structured_content: [{ type: 'artifact', file_id: 'f1' }] },
      }),
      ev('agent.tool_result', { event_id: 'y', tool_result: { content: [{ type: 'text', text: 'only content' }] } }),
    ]);
    expect(lines(s)).toEqual(['tool result: [artifact f1]', 'tool result: only content']);
  });

  it('R-SESS-50 agent.custom_tool_use is shown awaiting its result (not a y/n confirmation)', () => {
    const s = feed(start(), [ev('agent.custom_tool_use', { name: 'lookup', input: { q: 1 } })]);
    expect(lines(s)).toEqual(['custom tool lookup: {"q":1}  awaiting result']);
    expect(s.confirmations).toEqual([]);
  });

  it('R-EVT-16 R-EVT-17 agent.model_started, tool_started, thinking_started and message_started add no transcript line', () => {
    const s = feed(start(), [
      ev('agent.model_started', { model: 'm' }),
      ev('agent.thinking_started'),
      ev('agent.message_started'),
      ev('agent.tool_started', { event_id: 'x' }),
    ]);
    expect(s.finished).toEqual([]);
    expect(s.eventCount).toBe(4);
  });

  it('R-EVT-19 TTFT is agent.model_started to its first delta (marked by *_started), per model request, by the service clock', () => {
    const t = (ms: number) => ({ processed_at: new Date(ms).toISOString() });
    // Received all at once (a view attached mid-request, reading history first): the service's times count, not arrival.
    let s = feed(
      start(),
      [ev('agent.model_started', { model: 'm' }, t(1000)), ev('agent.message_started', undefined, t(1250)), delta({ kind: 'text', delta: 'a' })],
      () => 9000,
    );
    expect(s.ttftMs).toBe(250);
    s = feed(s, [
      ev('agent.model_started', { model: 'm' }, t(5000)),
      ev('agent.thinking_started', undefined, t(5040)),
      delta({ kind: 'thinking', delta: 'x' }),
    ]);
    expect(s.ttftMs).toBe(40);
    // Per thread: a child's first fragment does not end the main thread's wait.
    s = feed(s, [ev('agent.model_started', {}, t(7000)), ev('agent.message_started', undefined, { ...t(7100), session_thread_id: 'th_1' })]);
    expect(s.ttftMs).toBe(40);
  });

  it('R-EVT-9 R-EVT-15 a text delta stream previews the reply and the complete agent.message replaces it', () => {
    let s = feed(
      start(),
      ['Hel', 'lo ', 'world'].map((d) => delta({ kind: 'text', delta: d })),
    );
    expect(s.previews).toMatchObject([{ kind: 'text', text: 'Hello world' }]);
    expect(s.finished).toEqual([]);
    s = feed(s, [ev('agent.message', text('Hello world!'))]);
    expect(s.previews).toEqual([]);
    expect(lines(s)).toEqual(['agent: Hello world!']);
  });

  it('R-EVT-15 a complete event with no preview of its own keeps the previews as they are (no copy per event)', () => {
    const s = feed(start(), [delta({ kind: 'text', delta: 'par' })]);
    const after = feed(s, [ev('agent.thinking', text('hmm.')), ev('agent.message', text('child'), { session_thread_id: 'th_1' })]);
    expect(after.previews).toBe(s.previews);
    expect(lines(after)).toEqual(['thinking: hmm.', '[th_1] agent: child']);
  });

  it('R-EVT-15 the complete agent.thinking replaces only the thinking preview of its thread', () => {
    let s = feed(start(), [
      delta({ kind: 'thinking', delta: 'hmm' }),
      delta({ kind: 'text', delta: 'par' }),
      delta({ kind: 'thinking', delta: 'child' }, 'th_1'),
    ]);
    s = feed(s, [ev('agent.thinking', text('hmm.'))]);
    expect(s.previews.map((p) => [p.kind, p.threadId, p.text])).toEqual([
      ['text', undefined, 'par'],
      ['thinking', 'th_1', 'child'],
    ]);
  });

  it('R-EVT-10 R-EVT-12 R-EVT-14 tool_use fragments are concatenated per tool_use_id, named by the first, replaced by agent.tool_use', () => {
    let s = feed(start(), [
      delta({ kind: 'tool_use', tool_use_id: 'tu_1', input_delta: '{"cm', name: 'bash' }),
      delta({ kind: 'tool_use', tool_use_id: 'tu_2', input_delta: '{"pa', name: 'read' }),
      delta({ kind: 'tool_use', tool_use_id: 'tu_1', input_delta: 'd":"ls"}' }),
    ]);
    expect(s.previews.map((p) => [p.toolUseId, p.name, p.text])).toEqual([
      ['tu_1', 'bash', '{"cmd":"ls"}'],
      ['tu_2', 'read', '{"pa'],
    ]);
    s = feed(s, [ev('agent.tool_use', { name: 'bash', input: { cmd: 'ls' }, permission: 'allow' }, { id: 'tu_1' })]);
    expect(s.previews.map((p) => p.toolUseId)).toEqual(['tu_2']);
  });

  it('a preview keeps a bounded tail however long the reply (capped buffer)', () => {
    let s = start();
    for (let i = 0; i < 5000; i++) s = reduce(s, { type: 'stream', item: delta({ kind: 'text', delta: `chunk${i} ` }), at: i });
    expect(s.previews[0].text.length).toBeLessThanOrEqual(2 * PREVIEW_CHARS);
    expect(s.previews[0].cut).toBe(true);
    expect(s.previews[0].text.endsWith('chunk4999 ')).toBe(true);
  });

  it('R-STREAM-14 d hides previews: hidden deltas are not accumulated but still time the first token', () => {
    let s = apply(start(), { type: 'deltas.toggle' });
    s = feed(s, [
      ev('agent.model_started', { model: 'm' }, { processed_at: '2026-09-01T00:00:00.000Z' }),
      ev('agent.message_started', undefined, { processed_at: '2026-09-01T00:00:00.010Z' }),
      delta({ kind: 'text', delta: 'x' }),
    ]);
    expect(s.previews).toEqual([]);
    expect(s.ttftMs).toBe(10);
    s = feed(apply(s, { type: 'deltas.toggle' }), [delta({ kind: 'text', delta: 'y' })]);
    expect(s.previews.map((p) => p.text)).toEqual(['y']);
  });
});

describe('live view reducer: session events (R-EVT-4)', () => {
  it('R-EVT-20 session.status idle ends the turn: status and stop reason shown, the session still open', () => {
    const s = feed(start(), [ev('session.status', { status: 'running' }), ev('session.status', { status: 'idle', stop_reason: { type: 'end_turn' } })]);
    expect(s.status).toBe('idle');
    expect(s.stopReason).toEqual({ type: 'end_turn' });
    expect(lines(s)).toEqual(['idle: end_turn']);
  });

  it('R-SESS-25 idle with requires_action keeps only the confirmations stop_reason.event_ids lists; idle for another reason clears them', () => {
    let s = feed(start(), [
      ev('agent.tool_use', { name: 'a', input: {}, permission: 'ask' }, { id: 'x' }),
      ev('agent.tool_use', { name: 'b', input: {}, permission: 'ask' }, { id: 'y' }),
      ev('session.status', { status: 'idle', stop_reason: { type: 'requires_action', event_ids: ['y'] } }),
    ]);
    expect(s.confirmations.map((c) => c.eventId)).toEqual(['y']);
    s = feed(s, [ev('session.status', { status: 'idle', stop_reason: { type: 'interrupted' } })]);
    expect(s.confirmations).toEqual([]);
    expect(s.interrupted).toBe(true);
  });

  it("a turn that ends without its complete event leaves no preview: idle drops the coordinator's, interrupted all, a finished thread its own", () => {
    let s = feed(start(), [
      delta({ kind: 'text', delta: 'cut off' }),
      delta({ kind: 'text', delta: 'child' }, 'th_1'),
      delta({ kind: 'text', delta: 'other' }, 'th_2'),
    ]);
    s = feed(s, [ev('session.status', { status: 'idle', stop_reason: { type: 'error' } })]);
    expect(s.previews.map((p) => p.threadId)).toEqual(['th_1', 'th_2']);
    s = feed(s, [ev('session.thread_status', { thread_id: 'th_1', status: 'cancelled' }, { session_thread_id: 'th_1' })]);
    expect(s.previews.map((p) => p.threadId)).toEqual(['th_2']);
    s = feed(s, [ev('session.status', { status: 'idle', stop_reason: { type: 'interrupted' } })]);
    expect(s.previews).toEqual([]);
  });

  it('session.status running clears interrupted; terminated ends previews and confirmations', () => {
    let s = apply(start(), { type: 'session', session: { status: 'idle', interrupted: true, control_epoch: '3' } });
    s = feed(s, [ev('session.status', { status: 'running' }), delta({ kind: 'text', delta: 'x' })]);
    expect(s.interrupted).toBe(false);
    s = feed(s, [ev('session.status', { status: 'terminated' })]);
    expect(s).toMatchObject({ status: 'terminated', previews: [], confirmations: [] });
  });

  it('R-EVT-21 R-EVT-23 session.error is an error item with its type, message and MCP server', () => {
    const s = feed(start(), [ev('session.error', { error_type: 'mcp_connection_failed', message: 'cannot reach', mcp_server_name: 'gh' })]);
    expect(s.finished[0]).toMatchObject({ kind: 'error', error: true });
    expect(lines(s)).toEqual(['error mcp_connection_failed: cannot reach (mcp server gh)']);
  });

  it('R-STREAM-23 session.thread_created and thread_status build the thread tree; child events are tagged by thread name', () => {
    const s = feed(start(), [
      ev('session.thread_created', { thread_id: 'th_1', parent_thread_id: 'th_0', agent_name: 'worker-1' }, { session_thread_id: 'th_1' }),
      ev('session.thread_status', { thread_id: 'th_1', status: 'running' }, { session_thread_id: 'th_1' }),
      ev('agent.message', text('done'), { session_thread_id: 'th_1' }),
      ev('session.thread_status', { thread_id: 'th_1', status: 'idle' }, { session_thread_id: 'th_1' }),
      ev('session.thread_status', { thread_id: 'th_9', status: 'cancelled' }, { session_thread_id: 'th_9' }),
    ]);
    expect(s.threads).toEqual([
      { id: 'th_1', parentId: 'th_0', name: 'worker-1', status: 'idle' },
      { id: 'th_9', name: 'th_9', status: 'cancelled' },
    ]);
    expect(lines(s)).toEqual(['[worker-1] thread started: worker-1 th_1', '[worker-1] agent: done', '[worker-1] thread idle', '[th_9] thread cancelled']);
  });

  it('R-STREAM-23 a later thread of the same agent (a second /delegate) gets its own tag: worker-1#2', () => {
    const created = (id: string) => ev('session.thread_created', { thread_id: id, agent_name: 'worker-1' }, { session_thread_id: id });
    const s = feed(start(), [created('th_1'), created('th_2'), created('th_3'), ev('agent.message', text('second'), { session_thread_id: 'th_2' })]);
    expect(s.threads.map((t) => t.name)).toEqual(['worker-1', 'worker-1#2', 'worker-1#3']);
    expect(lines(s).at(-1)).toBe('[worker-1#2] agent: second');
  });

  it('R-EVT-27 R-EVT-29 session.updated shows what changed and takes a new title', () => {
    const s = feed(start(), [ev('session.updated', { title: 'Renamed', agent_overrides: {} })]);
    expect(s.title).toBe('Renamed');
    expect(lines(s)).toEqual(['session updated: title "Renamed", agent_overrides']);
  });

  it('R-EVT-5 unknown event types are counted and otherwise ignored, never fatal', () => {
    const before = start();
    const s = feed(before, [ev('agent.future_thing', { x: 1 }), ev('session.brand_new'), ev('weird')]);
    expect(s.finished).toEqual([]);
    expect(s.eventCount).toBe(3);
    expect({ ...s, eventCount: 0 }).toEqual({ ...before, eventCount: 0 });
  });

  it('events with missing or malformed data are not fatal', () => {
    const s = feed(start(), [
      ev('agent.message'),
      ev('agent.tool_use'),
      ev('session.status'),
      ev('session.thread_created', { thread_id: 7 }),
      ev('agent.tool_result', { tool_result: null }),
    ]);
    expect(s.eventCount).toBe(5);
  });
});

describe('live view reducer: connection and bounds', () => {
  it('R-STREAM-27 R-STREAM-31 reconnecting or backfilling discards unfinished previews and shows the attempt', () => {
    let s = feed(start(), [ev('agent.model_started', { model: 'm' }), delta({ kind: 'text', delta: 'half' })]);
    s = feed(s, [{ kind: 'connection', state: { kind: 'reconnecting', attempt: 2, reason: 'reset', retryInMs: 4000 } }], () => 1000);
    // The fragments are gone; the preview stays as a marker that says so.
    expect(s.previews).toMatchObject([{ kind: 'text', text: '', lost: true }]);
    expect(s.connection).toEqual({ kind: 'reconnecting', attempt: 2, reason: 'reset', retryInMs: 4000 });
    expect(s.retryAt).toBe(5000);
    s = feed(s, [{ kind: 'connection', state: { kind: 'backfilling' } }, live]);
    expect(s.connection).toEqual({ kind: 'live' });
    expect(s.retryAt).toBeUndefined();
  });

  it('issue 26 R-STREAM-31: fragments after a reconnect continue a preview marked as lost; the complete event replaces it', () => {
    let s = feed(start(), [delta({ kind: 'text', delta: 'The quick brown ' })]);
    s = feed(s, [{ kind: 'connection', state: { kind: 'reconnecting', attempt: 1, reason: 'reset' } }, live, delta({ kind: 'text', delta: 'fox jumps' })]);
    expect(s.previews).toMatchObject([{ kind: 'text', text: 'fox jumps', lost: true }]);
    s = feed(s, [ev('agent.message', text('The quick brown fox jumps'))]);
    expect(s.previews).toEqual([]);
    expect(lines(s).at(-1)).toBe('agent: The quick brown fox jumps');
  });

  it('reduce is pure: a batch leaves the given state untouched (frozen) and returns a new one', () => {
    const deepFreeze = <T>(o: T): T => {
      if (o && typeof o === 'object' && !Object.isFrozen(o)) {
        Object.freeze(o);
        for (const v of Object.values(o)) deepFreeze(v);
      }
      return o;
    };
    const before = deepFreeze(
      feed(start(), [delta({ kind: 'text', delta: 'a' }), ev('agent.tool_use', { name: 'x', input: {}, permission: 'ask' }, { id: 'k' })]),
    );
    const items = [
      ev('agent.model_started', { model: 'm' }),
      delta({ kind: 'text', delta: 'b' }),
      ev('agent.message', text('ab')),
      ev('user.tool_confirmation', { event_id: 'k', result: 'allow' }),
      ev('session.status', { status: 'idle', stop_reason: { type: 'end_turn' } }),
    ];
    const after = reduce(before, { type: 'batch', items: items.map((item, i) => ({ item, at: i })) });
    expect(after).not.toBe(before);
    expect(after.eventCount).toBe(before.eventCount + 4);
    expect(after.finished.map(formatItem).slice(-3)).toEqual(['agent: ab', 'allowed: k', 'idle: end_turn']);
    expect(before.confirmations).toHaveLength(1);
  });

  it('flushed items leave the state: memory stays bounded over many events', () => {
    let s = start();
    for (let i = 0; i < 10_000; i++) {
      s = reduce(s, { type: 'stream', item: ev('agent.message', text(`m${i}`)), at: i });
      if (i % 100 === 99) s = reduce(s, { type: 'flushed', through: s.finished.at(-1)!.seq });
    }
    expect(s.finished).toEqual([]);
    expect(s.eventCount).toBe(10_000);
  });

  it('a view that falls behind keeps at most MAX_UNFLUSHED items and says how many it left out', () => {
    let s = start();
    for (let i = 0; i < 3 * MAX_UNFLUSHED; i++) s = reduce(s, { type: 'stream', item: ev('agent.message', text(`m${i}`)), at: i });
    expect(s.finished.length).toBeLessThanOrEqual(MAX_UNFLUSHED);
    expect(s.finished[0].kind).toBe('gap');
    expect(Number(s.finished[0].text) + s.finished.length - 1).toBe(3 * MAX_UNFLUSHED);
    expect(s.finished.at(-1)!.text).toBe(`m${3 * MAX_UNFLUSHED - 1}`);
  });

  it('R-SESS-22 a session read sets status, epoch and the control flags', () => {
    const s = apply(start(), {
      type: 'session',
      session: {
        title: 'T',
        status: 'idle',
        control_epoch: '7',
        stopping: false,
        interrupted: true,
        continue_pending: true,
        stop_reason: { type: 'interrupted' },
      },
    });
    expect(s).toMatchObject({ title: 'T', status: 'idle', epoch: '7', interrupted: true, continuePending: true, stopReason: { type: 'interrupted' } });
  });

  it('t cycles the thread filter through all, main and each thread', () => {
    let s = feed(start(), [
      ev('session.thread_created', { thread_id: 'th_1', agent_name: 'w1' }),
      ev('session.thread_created', { thread_id: 'th_2', agent_name: 'w2' }),
    ]);
    const seen = [s.filter];
    for (let i = 0; i < 4; i++) seen.push((s = apply(s, { type: 'filter.cycle' })).filter);
    expect(seen).toEqual([FILTER_ALL, FILTER_MAIN, 'th_1', 'th_2', FILTER_ALL]);
    // Each change leaves a marker in the transcript, after the items received before it.
    const markers = s.finished.filter((i) => i.kind === 'filter').map((i) => [i.head, i.text]);
    expect(markers).toEqual([
      ['showing the main thread from here', FILTER_MAIN],
      ['showing thread w1 from here', 'th_1'],
      ['showing thread w2 from here', 'th_2'],
      ['showing all threads from here', FILTER_ALL],
    ]);
    expect(s.finished.map((i) => i.seq)).toEqual([...s.finished.map((i) => i.seq)].sort((a, b) => a - b));
  });

  it('compose edits the draft, Tab switches next_turn and steer, close drops it', () => {
    let s = apply(
      start(),
      { type: 'compose.open' },
      { type: 'compose.input', text: 'hé' },
      { type: 'compose.input', text: 'y!' },
      { type: 'compose.backspace' },
    );
    expect(s.compose).toEqual({ text: 'héy', mode: 'next_turn' });
    s = apply(s, { type: 'compose.toggle' });
    expect(s.compose?.mode).toBe('steer');
    expect(apply(s, { type: 'compose.close' }).compose).toBeUndefined();
  });
});
