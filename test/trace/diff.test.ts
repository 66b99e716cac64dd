import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/diff-sessions/lines';
import { emuEnv, svc, type SvcOptions } from '../helpers/cli';
import { requestCount, useEmulator } from '../helpers/emulator';
import { agent, append, ev, session, type Ev } from '../stats/history';
import { tracedHistory } from './history';

const t = useEmulator({ modelStepMs: 5 });
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, o.env) });

async function withHistory(items: Ev[]): Promise<string> {
  const s = await session(t.emu, await agent(t.emu, `diff-${Math.random().toString(36).slice(2, 8)}`));
  await append(t.emu, s, items, { status: 'idle', stop_reason: { type: 'interrupted' } });
  return s;
}

/** The traced history, its times stretched by `k` and its events changed by `edit`. */
function variant(k: number, edit: (e: Ev) => Ev = (e) => e): Ev[] {
  return tracedHistory().map((e) =>
    edit({
      ...e,
      processed_at: new Date(
        Date.parse('2026-03-02T10:00:00Z') + (Date.parse(e.processed_at as string) - Date.parse('2026-03-02T10:00:00Z')) * k,
      ).toISOString(),
    }),
  );
}

describe('svc sessions diff', () => {
  it('exit 0 when the compared parts are the same; durations within half of the longer are the same', async () => {
    const a = await withHistory(variant(1));
    const b = await withHistory(variant(1.2));
    const r = await run(['sessions', 'diff', a, b]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('the compared parts are the same');
    expect(r.stdout).toMatch(/^ {2}turn 1 tool 1 +bash\(\{"command":"make check"\}\) ok 1\.00s +bash\(\{"command":"make check"\}\) ok 1\.20s$/m);
  });

  it('exit 1 when they differ: the tool sequence, durations, the final message as a unified diff; --ignore narrows; -o json', async () => {
    const a = await withHistory([
      ...variant(1),
      ev(200, 'session.status', { data: { status: 'running' } }),
      ev(201, 'agent.message', { data: { content: [{ type: 'text', text: 'Done.\nThe release is out.\nBye.' }] } }),
      ev(202, 'session.status', { data: { status: 'idle', stop_reason: { type: 'end_turn' } } }),
    ]);
    const b = await withHistory([
      ...variant(3, (e) => (e.id === 'call_bash' ? { ...e, data: { name: 'bash', input: { command: 'make test' } } } : e)),
      ev(600, 'session.status', { data: { status: 'running' } }),
      ev(601, 'agent.message', { data: { content: [{ type: 'text', text: 'Done.\nThe release is late.\nBye.' }] } }),
      ev(602, 'session.status', { data: { status: 'idle', stop_reason: { type: 'end_turn' } } }),
    ]);
    const r = await run(['sessions', 'diff', a, b], { env: { NO_COLOR: '1' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^≠ turn 1 tool 1 +bash\(\{"command":"make check"\}\) ok 1\.00s +bash\(\{"command":"make test"\}\) ok 3\.00s$/m);
    expect(r.stdout).toMatch(/^≠ turn 1 duration_ms +16\.0s +48\.0s$/m);
    expect(r.stdout).toContain(`--- ${a}\n+++ ${b}\n@@ -1,3 +1,3 @@\n Done.\n-The release is out.\n+The release is late.\n Bye.\n`);
    const j = await run(['sessions', 'diff', a, b, '-o', 'json', '--ignore', 'durations']);
    expect(j.code).toBe(1);
    const cmp = JSON.parse(j.stdout);
    expect(cmp.same).toBe(false);
    expect(cmp.differences.map((d: { part: string }) => d.part)).toEqual(['turn 1 tool 1', 'final_message']);
    expect(cmp.a.turns[0].tools[0]).toEqual({ name: 'bash', input: '{"command":"make check"}', outcome: 'ok', duration_ms: 1000 });
    const narrowed = await run(['sessions', 'diff', a, b, '--ignore', 'durations,text', '-o', 'json']);
    expect(JSON.parse(narrowed.stdout).differences.map((d: { part: string }) => d.part)).toEqual(['turn 1 tool 1']);
  });

  it('errors are 2 and up: an unknown --ignore part is exit 2 with nothing sent, an unknown session exit 6', async () => {
    const before = await requestCount(t.emu);
    const r = await run(['sessions', 'diff', 'sesn_a', 'sesn_b', '--ignore', 'colour']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--ignore takes durations, text/);
    expect(await requestCount(t.emu)).toBe(before);
    expect((await run(['sessions', 'diff', 'sesn_nope', 'sesn_nope2'])).code).toBe(6);
  });

  it('the unified diff reads as diff -u prints it', () => {
    const a = 'a\nb\nc\nd\ne\nf\ng\nh\ni\n';
    const b = 'a\nb\nX\nd\ne\nf\ng\nh\ni\nj\n';
    expect(unifiedDiff(a, b, 'A', 'B')).toBe('--- A\n+++ B\n@@ -1,9 +1,10 @@\n a\n b\n-c\n+X\n d\n e\n f\n g\n h\n i\n+j\n');
    const long = (x: string) => ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', x].join('\n');
    expect(unifiedDiff(long('a').replace('1\n', 'one\n'), long('b'), 'A', 'B')).toBe(
      '--- A\n+++ B\n@@ -1,4 +1,4 @@\n-one\n+1\n 2\n 3\n 4\n@@ -8,4 +8,4 @@\n 8\n 9\n 10\n-a\n+b\n',
    );
    expect(unifiedDiff('same\n', 'same\n', 'A', 'B')).toBe('');
    expect(unifiedDiff('', 'new\n', 'A', 'B')).toBe('--- A\n+++ B\n@@ -0,0 +1 @@\n+new\n');
  });
});
