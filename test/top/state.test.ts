import { describe, expect, it } from 'vitest';
import { isStale, sessionStatus, workRow } from '../../src/top/rows';
import {
  initialState,
  MAX_STREAMS,
  nextActivity,
  reduce,
  selectedRow,
  streamedSessions,
  targets,
  visibleRows,
  windowOf,
  type Action,
  type Activity,
  type BoardState,
} from '../../src/top/state';
import type { SessionEvent } from '../../src/wire/events';

const T0 = Date.parse('2026-11-20T10:00:00Z');
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();

/** A session as the service lists it, updated `s` seconds after T0. */
function session(id: string, s: number, o: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, title: `title ${id}`, agent_id: 'agent_1', status: 'idle', control_epoch: '0', created_at: iso(0), updated_at: iso(s), archived_at: null, ...o };
}

const run = (s: BoardState, ...actions: Action[]) => actions.reduce(reduce, s);
const upsert = (...items: Record<string, unknown>[]): Action => ({ type: 'sessions.upsert', items, at: T0 });
const ids = (s: BoardState) => visibleRows(s).map((r) => r.id);
const ev = (type: string, data: Record<string, unknown> = {}): SessionEvent => ({ id: `ev_${type}`, type, data }) as unknown as SessionEvent;
/** The event as the service stamped it, `ms` after the epoch. */
const at = (e: SessionEvent, ms: number): SessionEvent => ({ ...e, processed_at: new Date(ms).toISOString() });

describe('the board reducer (pure)', () => {
  it('lists sessions newest first and keeps the selected row selected when newer ones arrive above it', () => {
    let s = run(initialState(), upsert(session('a', 1), session('b', 2)));
    expect(ids(s)).toEqual(['b', 'a']);
    s = run(s, { type: 'move', by: 1 });
    expect(selectedRow(s)?.id).toBe('a');
    s = run(s, upsert(session('c', 3)));
    expect(ids(s)).toEqual(['c', 'b', 'a']);
    expect(selectedRow(s)?.id).toBe('a');
  });

  it('a session deleted elsewhere leaves the board with its mark, and the selection moves to the row in its place', () => {
    let s = run(initialState(), upsert(session('a', 1), session('b', 2), session('c', 3)), { type: 'move', by: 1 }, { type: 'mark.toggle' });
    expect([...s.marks]).toEqual(['b']);
    s = run(s, { type: 'moveTo', index: 1 }, { type: 'sessions.remove', ids: ['b'] });
    expect(ids(s)).toEqual(['c', 'a']);
    expect(s.marks.size).toBe(0);
    expect(selectedRow(s)?.id).toBe('a');
  });

  it('a full listing after an outage drops the rows it no longer lists', () => {
    const s = run(initialState(), upsert(session('a', 1), session('b', 2)), { type: 'sessions.synced', ids: new Set(['a']) });
    expect(ids(s)).toEqual(['a']);
  });

  it('a quiet poll moves only the time of the last answer', () => {
    const s = run(initialState(), upsert(session('a', 1)));
    const after = reduce(s, { type: 'sessions.upsert', items: [], at: T0 + 2000 });
    expect(after.polledAt).toBe(T0 + 2000);
    expect(after.sessions).toBe(s.sessions);
  });

  it('the filter searches title, agent name and status; the selected row stays selected when it still matches', () => {
    let s = run(
      initialState(),
      upsert(session('a', 1, { title: 'nightly triage' }), session('b', 2, { agent_id: 'agent_2' }), session('c', 3, { status: 'running' })),
      { type: 'agents', names: { agent_2: 'reviewer' } },
      { type: 'moveTo', index: 2 },
    );
    expect(selectedRow(s)?.id).toBe('a');
    s = run(s, { type: 'filter.open' }, { type: 'filter.input', text: 'TRIAGE' });
    expect(ids(s)).toEqual(['a']);
    s = run(s, { type: 'filter.clear' }, { type: 'filter.open' }, { type: 'filter.input', text: 'review' });
    expect(ids(s)).toEqual(['b']);
    s = run(s, { type: 'filter.backspace' }, { type: 'filter.backspace' }, { type: 'filter.backspace' }, { type: 'filter.backspace' });
    expect(s.filter.sessions).toBe('re');
    s = run(s, { type: 'filter.clear' }, { type: 'filter.open' }, { type: 'filter.input', text: 'running' }, { type: 'filter.done' });
    expect(ids(s)).toEqual(['c']);
    expect(s.filtering).toBe(false);
  });

  it('the filter matches the status as its cell shows it: failed, waiting, interrupted', () => {
    const s = run(
      initialState(),
      upsert(
        session('f', 1, { stop_reason: { type: 'error' } }),
        session('w', 2, { stop_reason: { type: 'requires_action', event_ids: ['e1'] } }),
        session('i', 3, { interrupted: true, stop_reason: { type: 'interrupted' } }),
        session('ok', 4, { stop_reason: { type: 'end_turn' } }),
      ),
    );
    const matching = (text: string) => ids(run(s, { type: 'filter.open' }, { type: 'filter.input', text }));
    for (const id of ['f', 'w', 'i', 'ok']) {
      const shown = sessionStatus(s.sessions.get(id)!);
      expect(matching(shown), shown).toContain(id);
    }
    expect(matching('failed')).toEqual(['f']);
    expect(matching('waiting')).toEqual(['w']);
  });

  it('s cycles the sort: by status puts sessions waiting on a human first, then running ones', () => {
    const s = run(
      initialState(),
      upsert(
        session('idle', 3),
        session('run', 1, { status: 'running' }),
        session('wait', 2, { requires_action: true, stop_reason: { type: 'requires_action', event_ids: ['e1'] } }),
      ),
      { type: 'sort.cycle' },
    );
    expect(ids(s)).toEqual(['wait', 'run', 'idle']);
  });

  it('space marks the row and moves on; the write keys act on the marked rows, else on the selected one', () => {
    let s = run(initialState(), upsert(session('a', 1), session('b', 2), session('c', 3)));
    expect(targets(s).map((r) => r.id)).toEqual(['c']);
    s = run(s, { type: 'mark.toggle' }, { type: 'mark.toggle' });
    expect(selectedRow(s)?.id).toBe('a');
    expect(targets(s).map((r) => r.id)).toEqual(['c', 'b']);
    s = run(s, { type: 'moveTo', index: 0 }, { type: 'mark.toggle' });
    expect(targets(s).map((r) => r.id)).toEqual(['b']);
  });

  it('a write that fails keeps the row as it was and says so in one footer line; marks of the rows it did are dropped', () => {
    let s = run(initialState(), upsert(session('a', 1), session('b', 2)), { type: 'mark.toggle' }, { type: 'mark.toggle' });
    const before = s.sessions;
    s = run(s, { type: 'busy', ids: ['a', 'b'], text: 'archiving…' });
    expect(s.busy).toEqual({ a: 'archiving…', b: 'archiving…' });
    s = run(s, { type: 'done', ids: ['a', 'b'], ok: ['b'], notice: { text: 'archive failed for a: conflict', level: 'error' } });
    expect(s.busy).toEqual({});
    expect([...s.marks]).toEqual(['a']);
    expect(s.sessions).toBe(before);
    expect(s.notice).toEqual({ text: 'archive failed for a: conflict', level: 'error' });
  });

  it('the window of rows follows the selection down past the page and back', () => {
    let s = initialState({ rows: 12 });
    s = run(s, upsert(...Array.from({ length: 50 }, (_, i) => session(`s${String(i).padStart(2, '0')}`, i))));
    const page = windowOf(s).rows.length;
    expect(page).toBe(5);
    s = run(s, { type: 'move', by: 7 });
    expect(windowOf(s).rows.map((r) => r.id)).toContain(selectedRow(s)!.id);
    expect(windowOf(s).first).toBe(3);
    s = run(s, { type: 'moveTo', index: -1 });
    expect(selectedRow(s)?.id).toBe('s00');
    s = run(s, { type: 'move', by: -100 });
    expect(windowOf(s).first).toBe(0);
  });

  it('streams are wanted only for running sessions on screen, at most 16, and none off the sessions view', () => {
    let s = initialState({ rows: 60 });
    s = run(s, upsert(...Array.from({ length: 30 }, (_, i) => session(`r${i}`, i, { status: i % 3 ? 'running' : 'idle' }))));
    const wanted = streamedSessions(s);
    expect(wanted).toHaveLength(MAX_STREAMS);
    expect(wanted.every((id) => s.sessions.get(id)!.status === 'running')).toBe(true);
    expect(streamedSessions(run(s, { type: 'view', view: 'work' }))).toEqual([]);
    const small = run(s, { type: 'resize', rows: 10, columns: 80 });
    expect(streamedSessions(small).length).toBeLessThanOrEqual(windowOf(small).rows.length);
  });

  it('a session that stops running loses its activity', () => {
    let s = run(initialState(), upsert(session('a', 1, { status: 'running' })), {
      type: 'events',
      id: 'a',
      events: [{ event: ev('agent.model_started'), at: 0 }],
    });
    expect(s.activity.a.step).toBe('thinking');
    s = run(s, upsert(session('a', 2, { status: 'idle', stop_reason: { type: 'end_turn' } })));
    expect(s.activity.a).toBeUndefined();
  });
});

describe('activity from a stream without deltas', () => {
  it('R-EVT-19: time to first token runs from agent.model_started to the first fragment (agent.message_started)', () => {
    let a = nextActivity({ step: 'running' }, at(ev('agent.model_started'), 1000));
    expect(a.step).toBe('thinking');
    a = nextActivity(a, at(ev('agent.message_started'), 1180));
    expect(a).toEqual({ step: 'writing', ttftMs: 180, modelStarts: {} });
    // The next request's start keeps the last figure until its own first fragment.
    a = nextActivity(a, at(ev('agent.model_started'), 2000));
    expect(a.ttftMs).toBe(180);
    a = nextActivity(a, at(ev('agent.thinking_started'), 2050));
    expect(a).toEqual({ step: 'thinking', ttftMs: 50, modelStarts: {} });
  });

  it('events without processed_at give the step but no timing', () => {
    const a = [ev('agent.model_started'), ev('agent.message_started')].reduce((x, e) => nextActivity(x, e), { step: 'running' } as Activity);
    expect(a.step).toBe('writing');
    expect(a.ttftMs).toBeUndefined();
  });

  it('a tool call shows its name; one that asks first, or a custom tool, is waiting on a human', () => {
    expect(nextActivity({ step: 'x' }, ev('agent.tool_use', { name: 'bash', permission: 'allow' })).step).toBe('tool bash');
    expect(nextActivity({ step: 'x' }, ev('agent.tool_use', { name: 'bash', permission: 'ask' })).step).toBe('waiting on a human');
    expect(nextActivity({ step: 'x' }, ev('agent.custom_tool_use', { name: 'deploy' })).step).toBe('waiting on a human');
    expect(nextActivity({ step: 'waiting on a human' }, ev('user.tool_confirmation', { result: 'allow' })).step).toBe('thinking');
  });
});

describe('work rows', () => {
  it('a leased row past its TTL without a heartbeat is stale; a queued one never is', () => {
    const row = workRow({ id: 'w', session_id: 's', status: 'active', generation: 2, lease_ttl_ms: 30_000, latest_heartbeat_at: iso(0), created_at: iso(0) });
    expect(isStale(row, T0 + 29_000)).toBe(false);
    expect(isStale(row, T0 + 31_000)).toBe(true);
    expect(isStale({ ...row, status: 'queued' }, T0 + 31_000)).toBe(false);
  });
});
