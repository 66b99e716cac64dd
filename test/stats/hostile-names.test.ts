// Issue 45 items 8, 9, 10 and 22: stats on names that are Object.prototype's, names that hold escape sequences,
// events of no known shape, and cache entries or statuses svc cannot trust.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { countWorkRow, emptyQueueCounts } from '../../src/top/rows';
import { emuEnv, svc, type SvcOptions } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { agent, append, ev, session } from './history';

const t = useEmulator({ modelStepMs: 5 });
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, { NO_COLOR: '1', ...o.env }) });
const json = async (args: string[], o: SvcOptions = {}) => {
  const r = await run([...args, '-o', 'json'], o);
  expect([r.code, r.stderr]).toEqual([0, '']);
  return JSON.parse(r.stdout);
};
const NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];
const TITLE = '\u001b]0;pwned\u0007';

/** A turn that calls tool `name` and ends in a session.error of type `name`. */
const turnOf = (name: string, s0: number) => [
  ev(s0, 'session.status', { data: { status: 'running' } }),
  ev(s0 + 1, 'agent.tool_use', { id: `call_${name}`, data: { name, input: {}, permission: 'allow' } }),
  ev(s0 + 2, 'agent.tool_result', { data: { event_id: `call_${name}`, is_error: true } }),
  ev(s0 + 3, 'session.error', { data: { error_type: name, message: 'x' } }),
  ev(s0 + 4, 'session.status', { data: { status: 'idle', stop_reason: { type: 'end_turn' } } }),
];

beforeAll(async () => {
  const a = await agent(t.emu, 'constructor');
  for (const [i, name] of NAMES.entries()) {
    const s = await session(t.emu, a, { set: 'proto', team: name });
    await append(t.emu, s, turnOf(name, i * 10));
  }
  const b = await agent(t.emu, `agent${TITLE}`);
  const s = await session(t.emu, b, { set: 'esc', team: `team${TITLE}` });
  await append(t.emu, s, [...turnOf(`tool${TITLE}`, 0)]);
});

describe('stats on hostile names (issue 45)', () => {
  it('item 8: an error type, tool, label or agent named constructor, toString, __proto__ counts like any other name', async () => {
    const [all] = await json(['stats', '-l', 'set=proto']);
    expect(all.errors).toEqual(Object.fromEntries([...NAMES].sort().map((n) => [n, 1])));
    expect(Object.keys(all.tools).sort()).toEqual([...NAMES].sort());
    for (const n of NAMES) expect(all.tools[n]).toMatchObject({ calls: 1, errors: 1 });
    expect(all).toMatchObject({ tool_calls: 4, tool_errors: 4, sessions: 4 });
    const byTeam = await json(['stats', '-l', 'set=proto', '--by', 'label:team']);
    expect(byTeam.map((g: { group: string }) => g.group).sort()).toEqual([...NAMES].sort());
    const byAgent = await run(['stats', '-l', 'set=proto', '--by', 'agent'], { stdoutTTY: true, columns: 200 });
    expect(byAgent.stdout).toMatch(/^constructor \(agent_\w+\)\s+█+\s+4 \(4 sessions, 0 failed\)$/m);
    const label = await run(['stats', '-l', 'set=proto', '--by', 'label:constructor', '-o', 'json']);
    expect(JSON.parse(label.stdout).map((g: { group: string }) => g.group)).toEqual(['(none)']);
    // work stats' counts by status: a status named __proto__ is counted, not set as a prototype.
    const c = emptyQueueCounts();
    for (const status of ['__proto__', 'constructor', 'queued']) countWorkRow(c, { status, createdAt: 0 } as never, 0);
    expect(JSON.parse(JSON.stringify(c.byStatus))).toMatchObject({ __proto__: 1, constructor: 1, queued: 1 });
  });

  it('item 9: a label, agent or tool name with an escape sequence is shown escaped in the charts, as in the tables', async () => {
    for (const by of [['--by', 'label:team'], ['--by', 'agent'], []]) {
      const r = await run(['stats', '-l', 'set=esc', ...by], { stdoutTTY: true, columns: 200 });
      expect(r.code).toBe(0);
      expect(r.stdout, by.join(' ')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
      if (by.length) expect(r.stdout).toContain('turns per group');
    }
    const [id] = (await call(t.emu, 'GET', '/v1/sessions?page_size=100')).body.items
      .filter((s: { metadata: { set: string } }) => s.metadata.set === 'esc')
      .map((s: { id: string }) => s.id);
    const one = await run(['sessions', 'stats', id], { stdoutTTY: true, columns: 200, env: { SVC_ACCESSIBLE: '1' } });
    expect(one.code).toBe(0);
    expect(one.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('item 10: a null event, one with no or a non-string type, a running status without a string processed_at: counted around, exit 0', async () => {
    const a = await agent(t.emu, 'odd');
    const s = await session(t.emu, a, { set: 'odd' });
    await append(t.emu, s, [
      ev(0, 'session.status', { data: { status: 'running' } }),
      { id: 'sevt_notype', processed_at: '2026-03-02T10:00:01.000Z' },
      { id: 'sevt_numtype', type: 7, processed_at: '2026-03-02T10:00:01.000Z' },
      ev(2, 'session.status', { data: { status: 'idle' } }),
      { id: 'sevt_run', type: 'session.status', data: { status: 'running' } },
      { id: 'sevt_run2', type: 'session.status', processed_at: 12, data: { status: 'idle' } },
      { id: 'sevt_run3', type: 'session.status', processed_at: null, data: { status: 'running' } },
    ]);
    const [g] = await json(['stats', '-l', 'set=odd']);
    expect(g).toMatchObject({ sessions: 1, turns: 3, running_seconds: 2 });
    expect(g.turns_per_day).toEqual({ '2026-03-02': 1 });
    const one = await run(['sessions', 'stats', s, '-o', 'json']);
    expect(one.code).toBe(0);
  });

  it('item 22: a cache entry of this version with a malformed tally is read again; a status the spec does not list is never cached', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'svc-stats-cache-'));
    const env = { XDG_CACHE_HOME: cache };
    const [before] = await json(['stats', '-l', 'set=proto'], { env });
    const folder = join(cache, 'svc', 'stats');
    for (const f of readdirSync(folder)) {
      const entry = JSON.parse(readFileSync(join(folder, f), 'utf8'));
      entry.tally.errors = null;
      entry.tally.tools = { bash: { calls: 'many' } };
      writeFileSync(join(folder, f), JSON.stringify(entry), { mode: 0o600 });
    }
    expect((await json(['stats', '-l', 'set=proto'], { env }))[0]).toEqual(before);
    const a = await agent(t.emu, 'queued');
    const s = await session(t.emu, a, { set: 'queued' });
    await append(t.emu, s, [ev(0, 'session.status', { data: { status: 'running' } })], { status: 'queued' });
    const fresh = mkdtempSync(join(tmpdir(), 'svc-stats-cache-'));
    await json(['stats', '-l', 'set=queued'], { env: { XDG_CACHE_HOME: fresh } });
    expect(readdirSync(join(fresh, 'svc', 'stats'))).toEqual([]);
  });
});
