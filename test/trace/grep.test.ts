import { describe, expect, it } from 'vitest';
import { emuEnv, ndjson, svc, tempConfigDir, type SvcOptions } from '../helpers/cli';
import { requestCount, useEmulator } from '../helpers/emulator';
import { agent, append, ev, session } from '../stats/history';
import { tracedHistory } from './history';

const t = useEmulator({ modelStepMs: 5 });
const cacheHome = tempConfigDir();
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, { XDG_CACHE_HOME: cacheHome, ...o.env }) });

let a = '';
let traced = '';
let other = '';
async function fleet(): Promise<void> {
  if (a) return;
  a = await agent(t.emu, 'grep-agent');
  traced = await session(t.emu, a, { suite: 'grep' });
  await append(t.emu, traced, tracedHistory(), { status: 'idle', stop_reason: { type: 'interrupted' }, interrupted: true, title: 'release' });
  other = await session(t.emu, a, { suite: 'grep' });
  await append(
    t.emu,
    other,
    [
      ev(0, 'user.message', { data: { content: [{ type: 'text', text: 'QUOTA report\nsecond line: nothing here' }] } }),
      ev(1, 'session.error', { data: { error_type: 'model_error', message: 'quota exceeded upstream' } }),
    ],
    { status: 'idle', stop_reason: { type: 'error' } },
  );
}
const sel = ['--selector', 'suite=grep'];

describe('svc sessions grep', () => {
  it('finds text in messages, tool inputs and results, and errors, across the selected sessions; -o ndjson', async () => {
    await fleet();
    const hits = ndjson((await run(['sessions', 'grep', 'quota', ...sel, '-o', 'ndjson'])).stdout);
    const seen = hits.map((h) => `${h.session_id === traced ? 'T' : 'O'} ${h.type} ${h.line}`).sort();
    expect(seen).toEqual([
      'O session.error model_error: quota exceeded upstream',
      'T agent.custom_tool_use lookup {"key":"quota"}',
      'T agent.tool_result deploy failed: quota',
      'T user.custom_tool_result quota: 10',
    ]);
    const one = hits.find((h) => h.type === 'agent.tool_result');
    expect(one).toMatchObject({ title: 'release', at: '2026-03-02T10:00:15.000Z', matches: [[15, 20]] });
  });

  it('-i folds case; -l prints each matching session once; --type narrows', async () => {
    await fleet();
    const folded = ndjson((await run(['sessions', 'grep', 'quota', '-i', ...sel, '-o', 'ndjson'])).stdout);
    expect(folded.map((h) => h.line)).toContain('QUOTA report');
    const ids = (await run(['sessions', 'grep', 'quota', '-l', ...sel])).stdout.trim().split('\n').sort();
    expect(ids).toEqual([traced, other].sort());
    const errs = ndjson((await run(['sessions', 'grep', 'quota', '--type', 'session.error', ...sel, '-o', 'ndjson'])).stdout);
    expect(errs.map((h) => h.session_id)).toEqual([other]);
    const bad = await run(['sessions', 'grep', 'x', '--type', 'agent.mesage', ...sel]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/agent\.message/);
  });

  it('-E: a regular expression; a catastrophic one gives up on the lines past the limit and ends', async () => {
    await fleet();
    const re = ndjson((await run(['sessions', 'grep', '-E', 'checks? (passed|failed)', ...sel, '-o', 'ndjson'])).stdout);
    expect(re.map((h) => h.line)).toEqual(['all 12 checks passed']);
    const s = await session(t.emu, a, { suite: 'grep-redos' });
    await append(t.emu, s, [ev(0, 'user.message', { data: { content: [{ type: 'text', text: 'a'.repeat(40) + '!\nplain aaa' }] } })]);
    const started = Date.now();
    const r = await run(['sessions', 'grep', '-E', '^(a+)+$', '--selector', 'suite=grep-redos', '-o', 'ndjson']);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^1 line ran past -E's limit of 250 ms a line and counted as no match$/m);
    const bad = await run(['sessions', 'grep', '-E', '(', ...sel]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a regular expression/);
  });

  it('settled sessions come from the cache: a second search reads no history, whatever the pattern', async () => {
    const s = await session(t.emu, a, { suite: 'grep-cache' });
    await append(t.emu, s, [ev(0, 'agent.message', { data: { content: [{ type: 'text', text: 'cached words' }] } })], {
      status: 'idle',
      stop_reason: { type: 'end_turn' },
    });
    const home = tempConfigDir();
    const first = await run(['sessions', 'grep', 'cached', '--selector', 'suite=grep-cache', '-o', 'ndjson'], { env: { XDG_CACHE_HOME: home } });
    expect(ndjson(first.stdout)).toHaveLength(1);
    const before = await requestCount(t.emu);
    const second = await run(['sessions', 'grep', 'words', '--selector', 'suite=grep-cache', '-o', 'ndjson'], { env: { XDG_CACHE_HOME: home } });
    expect(ndjson(second.stdout)).toHaveLength(1);
    // The listing only.
    expect((await requestCount(t.emu)) - before).toBe(1);
    const fresh = await run(['sessions', 'grep', 'words', '--no-cache', '--selector', 'suite=grep-cache', '-o', 'ndjson'], { env: { XDG_CACHE_HOME: home } });
    expect(ndjson(fresh.stdout)).toHaveLength(1);
    expect((await requestCount(t.emu)) - before).toBe(3);
  });

  it('on a terminal: name, time, type and the line, the match highlighted', async () => {
    await fleet();
    const r = await run(['sessions', 'grep', 'checks', ...sel], { stdoutTTY: true, env: { FORCE_COLOR: '1' } });
    expect(r.stdout).toBe('\x1b[35mrelease\x1b[0m  2026-03-02T10:00:03.000Z  agent.tool_result  all 12 \x1b[1;31mchecks\x1b[0m passed\n');
    const piped = await run(['sessions', 'grep', 'checks', ...sel, '-o', 'table']);
    expect(piped.stdout).toBe('release  2026-03-02T10:00:03.000Z  agent.tool_result  all 12 checks passed\n');
  });
});

describe('svc sessions grep -f', () => {
  it("follows the running sessions' streams, history then live, matches as they come; Ctrl-C is exit 130", async () => {
    const { createSession, send, waitSession, waitUntil } = await import('../helpers/sse');
    const { startSvc, ndjson: lines } = await import('../helpers/cli');
    const s = await createSession(t.emu, { metadata: { suite: 'grep-follow' } });
    await send(t.emu, s.id, '/slow 30 the needle is here');
    await waitSession(t.emu, s.id, (x) => x.status === 'running', 'running');
    const g = startSvc(t.emu, ['sessions', 'grep', 'needle', '-f', '--selector', 'suite=grep-follow', '-o', 'ndjson']);
    const first = await waitUntil(() => lines(g.stdout.text).find((h) => h.type === 'agent.message'), 'the reply matched', 15_000);
    expect(first).toMatchObject({ session_id: s.id, line: 'the needle is here' });
    // Live: a second turn's reply is matched while the command runs.
    await send(t.emu, s.id, '/echo another needle');
    await waitUntil(() => lines(g.stdout.text).find((h) => h.line === 'another needle'), 'the live reply matched', 15_000);
    g.ctrlC.abort();
    expect(await g.code).toBe(130);
  });

  it('-f with -l is exit 2', async () => {
    const r = await run(['sessions', 'grep', 'x', '-f', '-l', '--selector', 'suite=none']);
    expect(r.code).toBe(2);
  });
});
