import { beforeAll, describe, expect, it } from 'vitest';
import { nothingSaid, plainLines } from '../../src/live/plain';
import { initialState as viewState, type ViewState } from '../../src/live/reducer';
import { Progress } from '../../src/output/progress';
import { boardLines, nothingSaidOfBoard } from '../../src/top/plain';
import { initialState as boardState, reduce as boardReduce } from '../../src/top/state';
import { Capture, emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { apply, ev, feed, live, text } from '../live/fixtures';

const t = useEmulator();
const ids: string[] = [];
beforeAll(async () => {
  const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'plain', model: 'scripted-1' } })).body;
  for (const title of ['first', 'second', 'third']) ids.unshift((await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agent.id, title } })).body.id);
});

/** What the emulator has counted: `requests`, `writes`, … (requests to its admin paths are not counted). */
const stats = async (): Promise<Record<string, number | undefined>> => (await call(t.emu, 'GET', '/_emulator/stats')).body;

/** A terminal on all three streams, the lines typed as standard input. */
const terminal = (typed: string, env: Record<string, string> = {}) => ({
  stdin: typed,
  stdinTTY: true,
  stdoutTTY: true,
  stderrTTY: true,
  env: { ...emuEnv(t.emu), ...env },
});

describe('the accessible setting', () => {
  it('SVC_ACCESSIBLE=1: the picker is a numbered list; a number not offered is asked again, then 2 gets the second', async () => {
    const r = await svc(['sessions', 'get', '-o', 'json'], terminal('7\n2\n', { SVC_ACCESSIBLE: '1' }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(ids[1]);
    expect(r.stderr).toMatch(new RegExp(`^2\\. ${ids[1]}\\s+second\\s+idle`, 'm'));
    expect(r.stderr).toContain('Not one of the numbers: type a number from 1 to 3');
    // Colour, cursor moves and the hidden cursor stay out, even with colour on.
    expect(r.stderr).not.toContain('\x1b');
  });

  it('the profile key accessible: true does the same; SVC_ACCESSIBLE=0 turns it off for one command', async () => {
    const dir = tempConfigDir();
    const set = await svc(['config', 'set', 'accessible', 'true'], { env: { SVC_CONFIG_DIR: dir } });
    expect(set.code).toBe(0);
    const on = await svc(['sessions', 'get', '-o', 'json'], terminal('3\n', { SVC_CONFIG_DIR: dir }));
    expect(JSON.parse(on.stdout).id).toBe(ids[2]);
    expect(on.stderr).toContain('Type a number from 1 to 3');
    const off = await svc(['sessions', 'get', '-o', 'json'], terminal('\r', { SVC_CONFIG_DIR: dir, SVC_ACCESSIBLE: '0', NO_COLOR: '1' }));
    expect(off.stderr).toContain('(↑/↓ or j/k to move');
    expect(JSON.parse(off.stdout).id).toBe(ids[0]);
  });

  it('a value that is no switch is exit 2 in one line: SVC_ACCESSIBLE=maybe, config set accessible sometimes', async () => {
    const env = await svc(['sessions', 'get'], terminal('1\n', { SVC_ACCESSIBLE: 'maybe' }));
    expect(env.code).toBe(2);
    expect(env.stderr).toBe('error: invalid SVC_ACCESSIBLE "maybe": use 1 or 0 (true or false)\n');
    const dir = tempConfigDir();
    const set = await svc(['config', 'set', 'accessible', 'sometimes'], { env: { SVC_CONFIG_DIR: dir } });
    expect(set.code).toBe(2);
    expect(set.stderr).toBe('error: invalid accessible "sometimes": use 1 or 0 (true or false)\n');
  });

  it('bulk consent is a y/n question asked again after another answer; an empty answer is no and sends nothing', async () => {
    const before = await stats();
    const r = await svc(['sessions', 'archive', ids[1], ids[2]], terminal('perhaps\n\n', { SVC_ACCESSIBLE: '1' }));
    const after = await stats();
    // Not a write, nor any other request: the question comes before anything is sent.
    expect([after.requests ?? 0, after.writes ?? 0]).toEqual([before.requests ?? 0, before.writes ?? 0]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Archive 2 sessions? Type y for yes or n for no, then Enter [default n]: ');
    expect(r.stderr).toContain('Please type y or n, then Enter: ');
    expect(r.stderr).toContain('error: not confirmed; nothing was sent');
    expect((await call(t.emu, 'GET', `/v1/sessions/${ids[1]}`)).body.archived_at).toBeFalsy();
  });
});

describe('accessible progress lines', () => {
  it('a known size: one appended line per quarter, never a redrawn bar', () => {
    const out = new Capture();
    out.isTTY = true;
    let now = 0;
    const p = new Progress(out, { label: 'upload x', total: 4_000_000, now: () => now, accessible: true });
    for (let i = 0; i < 400; i++) {
      now += 100;
      p.bytes(10_000);
    }
    p.finish();
    expect(out.text).not.toMatch(/[\r\x1b]/);
    expect(
      out.text
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('  ')[1]),
    ).toEqual(['25%', '50%', '75%', '100%']);
  });
});

describe('accessible live lines (pure, over the reducer state)', () => {
  const said = (states: ViewState[]) => {
    let s = nothingSaid(states[0]);
    const lines: string[] = [];
    for (const state of states) {
      const step = plainLines(s, state);
      lines.push(...step.lines);
      s = { ...step.said };
    }
    return lines;
  };

  it('a turn in one batch still writes each state it passed through, in order, and each event once', () => {
    const start = feed(viewState('sesn_1'), [live]);
    const turn = feed(start, [
      ev('user.message', text('hi')),
      ev('session.status', { status: 'running' }),
      ev('agent.message', text('hello')),
      ev('session.status', { status: 'idle', stop_reason: { type: 'end_turn' } }),
    ]);
    expect(said([start, turn, turn])).toEqual(['connection: live', 'you: hi', 'session sesn_1: running', 'agent: hello', 'session sesn_1: idle']);
  });

  it('an awaited confirmation is asked about once, in words, with the keys that answer it', () => {
    const s0 = feed(viewState('sesn_1'), [live, ev('session.status', { status: 'running' })]);
    const s1 = feed(s0, [
      ev('agent.tool_use', { name: 'bash', input: { cmd: 'ls' }, permission: 'ask' }, { id: 'sevt_ask' }),
      ev('session.status', { status: 'idle', stop_reason: { type: 'requires_action', event_ids: ['sevt_ask'] } }),
    ]);
    const lines = said([s0, s1, apply(s1, { type: 'pending', count: 0 })]);
    expect(lines.filter((l) => l.includes('type y to allow or n to deny'))).toEqual([
      'session sesn_1: waiting for a confirmation of tool bash; type y to allow or n to deny, then Enter',
    ]);
    expect(lines).toContain('session sesn_1: waiting (reply)');
  });
});

describe('accessible top lines (pure, over the board state)', () => {
  const session = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
    id,
    title: `t-${id}`,
    status,
    created_at: '2026-11-20T10:00:00Z',
    updated_at: '2026-11-20T10:00:00Z',
    ...extra,
  });
  const upsert = (...items: Record<string, unknown>[]) => ({ type: 'sessions.upsert' as const, items, at: 0 });

  it('each session once when listed, then only the ones whose derived state changed, and those that left', () => {
    const s0 = [upsert(session('a', 'running'), session('b', 'idle'))].reduce(boardReduce, boardState());
    const s1 = boardReduce(s0, upsert(session('a', 'idle', { stop_reason: { type: 'error' } }), session('b', 'idle')));
    const s2 = boardReduce(s1, { type: 'sessions.remove', ids: ['b'] });
    let said = nothingSaidOfBoard();
    const lines: string[] = [];
    for (const s of [s0, s0, s1, s2]) {
      const step = boardLines(said, s);
      lines.push(...step.lines);
      said = step.said;
    }
    expect(lines).toEqual(['session a "t-a": running', 'session b "t-b": idle', 'session a "t-a": failed', 'session b: no longer listed']);
  });
});
