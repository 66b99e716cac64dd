import { beforeAll, describe, expect, it } from 'vitest';
import { pickerKeys, pickerLines, pickerState, pickerStep, type PickerState } from '../../src/cli/picker';
import { emuEnv, svc } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';

const now = Date.parse('2026-11-25T12:00:00Z');
const items = [
  { id: 'sesn_3', title: 'newest', status: 'running', updated_at: '2026-11-25T11:59:00Z' },
  { id: 'sesn_2', title: 'middle', status: 'idle', updated_at: '2026-11-25T11:00:00Z' },
  { id: 'sesn_1', name: 'oldest', status: 'idle', archived_at: '2026-11-25T10:00:00Z', updated_at: '2026-11-24T12:00:00Z' },
];

describe('the picker state', () => {
  it('one row per item: ID, name or title, status, age; the cursor on the first (newest)', () => {
    const s = pickerState(items, now);
    expect(s.rows).toEqual([
      ['sesn_3', 'newest', 'running', '1m ago'],
      ['sesn_2', 'middle', 'idle', '1h ago'],
      ['sesn_1', 'oldest', 'archived', '24h ago'],
    ]);
    expect(s.cursor).toBe(0);
  });

  it('j/k and the arrows move and wrap around; g and G jump; Enter chooses; keys after the end change nothing', () => {
    const run = (keys: string) => pickerKeys(keys).reduce<PickerState>(pickerStep, pickerState(items, now));
    expect(run('j').cursor).toBe(1);
    expect(run('jj').cursor).toBe(2);
    expect(run('jjj').cursor).toBe(0);
    expect(run('k').cursor).toBe(2);
    expect(run('\x1b[B\x1b[B\x1b[A').cursor).toBe(1);
    expect(run('\x1bOB').cursor).toBe(1);
    expect(run('G').cursor).toBe(2);
    expect(run('Gg').cursor).toBe(0);
    expect(run('j\r')).toMatchObject({ cursor: 1, outcome: 'chosen' });
    expect(run('j\rj')).toMatchObject({ cursor: 1, outcome: 'chosen' });
  });

  it('Esc, q and Ctrl-C cancel; an arrow is not an Esc; other keys are ignored', () => {
    expect(pickerKeys('\x1b')).toEqual(['cancel']);
    expect(pickerKeys('\x03')).toEqual(['cancel']);
    expect(pickerKeys('q')).toEqual(['cancel']);
    expect(pickerKeys('\x1b[A')).toEqual(['up']);
    expect(pickerKeys('xyz \t')).toEqual([]);
    expect(pickerKeys('jk\r')).toEqual(['down', 'up', 'choose']);
  });

  it('draws a question and aligned rows, the cursor row marked, each line cut to the terminal width', () => {
    const lines = pickerLines(pickerStep(pickerState(items, now), 'down'), 'session', { width: 30, color: false });
    expect(lines[0]).toMatch(/^\? Pick a session/);
    expect(lines[0].length).toBeLessThanOrEqual(29);
    expect(lines[1]).toMatch(/^ {2}sesn_3 {2}newest/);
    expect(lines[2]).toMatch(/^> sesn_2 {2}middle/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(29);
  });

  it('shows service text with its control characters escaped', () => {
    const [row] = pickerState([{ id: 'x', title: 'evil\x1b[2Jtitle' }], now).rows;
    expect(row[1]).not.toContain('\x1b');
  });
});

const t = useEmulator();
const ids: string[] = [];
beforeAll(async () => {
  const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'picked', model: 'scripted-1' } })).body;
  for (const title of ['first', 'second', 'third']) ids.unshift((await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agent.id, title } })).body.id);
});

/** A terminal on all three streams, the keys typed as standard input. */
const terminal = (keys: string, env: Record<string, string> = {}) => ({
  stdin: keys,
  stdinTTY: true,
  stdoutTTY: true,
  stderrTTY: true,
  env: { ...emuEnv(t.emu), NO_COLOR: '1', ...env },
});

describe('a missing ID on a terminal offers a picker', () => {
  it('sessions get with no ID lists the recent sessions, newest first; j then Enter gets the second', async () => {
    const r = await svc(['sessions', 'get', '-o', 'json'], terminal('j\r'));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(ids[1]);
    expect(r.stderr).toContain('? Pick a session');
    expect(r.stderr).toMatch(new RegExp(`${ids[0]}\\s+third\\s+idle`));
    expect(r.stderr).toContain(`? Pick a session: ${ids[1]}  second\n`);
  });

  it('the generic verbs of every resource get it too: agents get picks an agent', async () => {
    const r = await svc(['agents', 'get', '-o', 'json'], terminal('\r'));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('? Pick an agent');
    expect(JSON.parse(r.stdout).name).toBe('picked');
  });

  it('a verb of many sessions with no ID and no selector picks one: sessions events, sessions interrupt', async () => {
    const events = await svc(['sessions', 'events', '-o', 'json'], terminal('G\r'));
    expect(events.code).toBe(0);
    expect(events.stderr).toContain(`? Pick a session: ${ids[2]}  first`);
    const interrupt = await svc(['sessions', 'interrupt', '-o', 'json'], terminal('\r'));
    expect(interrupt.code).toBe(0);
    expect(JSON.parse(interrupt.stdout).id).toBe(ids[0]);
  });

  it('sessions wait, threads list and agents versions pick their missing parent too', async () => {
    // The newest (third) was interrupted above, so wait picks the oldest, which is idle.
    const wait = await svc(['sessions', 'wait', '-o', 'json'], terminal('jj\r'));
    expect(wait.stderr).toContain(`? Pick a session: ${ids[2]}  first`);
    expect(wait.code).toBe(0);
    const list = await svc(['threads', 'list', '-o', 'json'], terminal('j\r'));
    expect(list.code).toBe(0);
    expect(list.stderr).toContain(`? Pick a session: ${ids[1]}  second`);
    expect(JSON.parse(list.stdout).length).toBeGreaterThan(0);
    const versions = await svc(['agents', 'versions', '-o', 'json'], terminal('\r'));
    expect(versions.code).toBe(0);
    expect(versions.stderr).toContain('? Pick an agent');
    expect(JSON.parse(versions.stdout)[0].name).toBe('picked');
  });

  it('Esc cancels with exit 130 and sends nothing more than the list read', async () => {
    const before = await requestCount(t.emu);
    const r = await svc(['sessions', 'archive'], terminal('\x1b'));
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expect(await requestCount(t.emu)).toBe(before + 1);
    expect((await call(t.emu, 'GET', `/v1/sessions/${ids[0]}`)).body.archived_at).toBeNull();
  });

  it('under --no-input, CI=1, piped standard input or piped standard output it stays exit 2 with the same message and nothing sent', async () => {
    const cases: Array<[string, ReturnType<typeof terminal>, string[]]> = [
      ['--no-input', terminal('\r'), ['--no-input']],
      ['CI=1', terminal('\r', { CI: '1' }), []],
      ['piped stdin', { ...terminal('\r'), stdinTTY: false }, []],
      ['piped stdout', { ...terminal('\r'), stdoutTTY: false }, []],
    ];
    for (const [what, o, extra] of cases) {
      const before = await requestCount(t.emu);
      const get = await svc(['sessions', 'get', ...extra], o);
      expect(get.code, what).toBe(2);
      expect(get.stderr, what).toBe("error: missing required argument 'id'\n");
      const archive = await svc(['sessions', 'archive', ...extra], o);
      expect(archive.code, what).toBe(2);
      expect(archive.stderr, what).toContain('give session IDs, - to read them from standard input, or selectors');
      expect(await requestCount(t.emu), what).toBe(before);
    }
  });

  it('selectors are not a missing ID: sessions archive --status with no ID never opens the picker', async () => {
    const r = await svc(['sessions', 'archive', '--status', 'rescheduling'], terminal('\r'));
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('Pick a session');
    expect(r.stderr).toContain('nothing matched');
  });
});
