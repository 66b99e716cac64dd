import { describe, expect, it } from 'vitest';
import { emuEnv, svc, type SvcOptions } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { send, waitSession } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 5 });
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, o.env) });
const ids = async (args: string[], o: SvcOptions = {}) => {
  const r = await run([...args, '-q'], o);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout.trim().split('\n').filter(Boolean).sort();
};

let n = 0;
async function agent(name: string): Promise<string> {
  const r = await call(t.emu, 'POST', '/v1/agents', { body: { name, model: 'scripted-1' } });
  expect(r.status).toBe(201);
  return r.body.id;
}
async function session(agentId: string, metadata: Record<string, string>): Promise<string> {
  const r = await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agentId, metadata, title: `s${++n}` } });
  expect(r.status).toBe(201);
  return r.body.id;
}

describe('svc sessions list selectors', () => {
  it('--status (comma list of statuses and derived states), --agent by ID or name, -l, --requires-action', async () => {
    const a = await agent('selector-bot');
    const b = await agent('other-bot');
    const idle = await session(a, { set: 'sel1', team: 'infra' });
    const waiting = await session(a, { set: 'sel1' });
    const other = await session(b, { set: 'sel1', team: 'web' });
    await send(t.emu, waiting, '/confirm bash {"command":"ls"}');
    await waitSession(t.emu, waiting, (s) => s.requires_action === true, 'waiting on a confirmation');
    expect(await ids(['sessions', 'list', '-l', 'set=sel1', '--all'])).toEqual([idle, waiting, other].sort());
    expect(await ids(['sessions', 'list', '-l', 'set=sel1', '--agent', 'selector-bot', '--all'])).toEqual([idle, waiting].sort());
    expect(await ids(['sessions', 'list', '-l', 'set=sel1', '--agent', b, '--all'])).toEqual([other]);
    expect(await ids(['sessions', 'list', '-l', 'set=sel1,team', '--all'])).toEqual([idle, other].sort());
    expect(await ids(['sessions', 'list', '-l', 'set=sel1,!team', '--all'])).toEqual([waiting]);
    expect(await ids(['sessions', 'list', '-l', 'set=sel1,team!=web', '--all'])).toEqual([idle, waiting].sort());
    expect(await ids(['sessions', 'list', '-l', 'set=sel1', '--requires-action', '--all'])).toEqual([waiting]);
    expect(await ids(['sessions', 'list', '-l', 'set=sel1', '--status', 'idle,terminated', '--all'])).toEqual([idle, waiting, other].sort());
    expect(await ids(['sessions', 'list', '-l', 'set=sel1', '--status', 'waiting', '--all'])).toEqual([waiting]);
    expect(await ids(['sessions', 'list', '-l', 'set=sel1', '--status', 'running', '--all'])).toEqual([]);
  });

  it('--older-than, --newer-than and --idle-for are sent as created_at_lt, created_at_gt and updated_at_lt', async () => {
    const a = await agent('time-bot');
    const s = await session(a, { set: 'sel2' });
    expect(await ids(['sessions', 'list', '-l', 'set=sel2', '--newer-than', '1h', '--all'])).toEqual([s]);
    expect(await ids(['sessions', 'list', '-l', 'set=sel2', '--older-than', '1h', '--all'])).toEqual([]);
    expect(await ids(['sessions', 'list', '-l', 'set=sel2', '--idle-for', '1h', '--all'])).toEqual([]);
    const debug = await run(['sessions', 'list', '--older-than', '2h', '--idle-for', '30m', '--debug', '-q']);
    const line = debug.stderr.split('\n').find((l) => l.includes('GET') && l.includes('/v1/sessions'))!;
    expect(decodeURIComponent(line)).toMatch(/created_at_lt=\d{4}-\d\d-\d\dT[\d:.]+Z/);
    expect(decodeURIComponent(line)).toMatch(/updated_at_lt=\d{4}-/);
  });

  it('--agent by a name two agents share is exit 2 listing both', async () => {
    const a = await agent('twin');
    const b = await agent('twin');
    const r = await run(['sessions', 'list', '--agent', 'twin']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(a);
    expect(r.stderr).toContain(b);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const missing = await run(['sessions', 'list', '--agent', 'nobody-has-this-name']);
    expect(missing.code).toBe(6);
  });

  it('a malformed selector, duration or time is exit 2 naming the flag, with nothing sent', async () => {
    const before = await requestCount(t.emu);
    for (const [flag, value] of [
      ['--older-than', '7days'],
      ['--newer-than', '0s'],
      ['--idle-for', 'soon'],
      ['-l', 'a=b,,c'],
      ['--status', 'idle,,running'],
    ]) {
      const r = await run(['sessions', 'archive', flag, value, '--yes']);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(flag === '-l' ? '--selector' : flag);
    }
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('--limit counts matches, and a list cut short says so on stderr', async () => {
    const a = await agent('limit-bot');
    for (let i = 0; i < 5; i++) await session(a, { set: 'sel3' });
    const r = await run(['sessions', 'list', '-l', 'set=sel3', '--limit', '3', '--page-size', '2', '-q']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    expect(r.stderr).toBe('more: use --all\n');
  });
});
