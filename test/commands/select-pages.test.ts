/**
 * The one selection (src/selection/select.ts) at fleet scale: 300 sessions whose matches sit on the third page of
 * the service's default size (newest first, positions 101 to 150), found alike by `sessions list` (-q, -o id, the
 * table), the bulk verbs, `sessions wait` and `stats`; `--limit` counts matches; the pages read are said on a
 * terminal only; `--error-type` reads the tail of a failed session's history.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { emuEnv, svc, type SvcOptions } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { send, waitSession } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 1 });
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, o.env) });
const lines = (text: string) => text.trim().split('\n').filter(Boolean).sort();

/** Created in order 1..300 and listed newest first: creation number n sits at position 301 - n. */
const TOTAL = 300;
/** Positions 137..141 (the third page of 50): three model_error failures, two timeouts. */
const FAILED = [160, 161, 162, 163, 164];
/** Positions 131..134: idle sessions of team infra, the README's pipeline's selection. */
const INFRA = [167, 168, 169, 170];
const failed: string[] = [];
const timeouts: string[] = [];
const infra: string[] = [];

beforeAll(async () => {
  const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'pager', model: 'scripted-1' } })).body.id as string;
  for (let n = 1; n <= TOTAL; n++) {
    const metadata = INFRA.includes(n) ? { team: 'infra' } : { team: 'web' };
    const r = await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agent, metadata, title: `s${n}` } });
    expect(r.status).toBe(201);
    const i = FAILED.indexOf(n);
    if (i >= 0) {
      await send(t.emu, r.body.id, i < 3 ? '/error model_error' : '/error timeout');
      (i < 3 ? failed : timeouts).push(r.body.id);
    }
    if (INFRA.includes(n)) infra.push(r.body.id);
  }
  for (const id of [...failed, ...timeouts]) await waitSession(t.emu, id, (s) => s.status === 'idle' && s.stop_reason?.type === 'error', 'failed');
  failed.push(...timeouts);
}, 60_000);

describe('one selection over 300 sessions, the matches on the third page', () => {
  it('sessions list --status failed finds every match with -q, -o id and the table, and says nothing off a terminal', async () => {
    const q = await run(['sessions', 'list', '--status', 'failed', '-q']);
    expect(q.code).toBe(0);
    expect(lines(q.stdout)).toEqual([...failed].sort());
    expect(q.stderr).toBe('');
    const id = await run(['sessions', 'list', '--status', 'failed', '-o', 'id', '--page-size', '50']);
    expect(lines(id.stdout)).toEqual([...failed].sort());
    expect(id.stderr).toBe('');
    const table = await run(['sessions', 'list', '--status', 'failed', '-o', 'table', '--page-size', '50']);
    for (const s of failed) expect(table.stdout).toContain(s);
    expect(table.stdout.trim().split('\n')).toHaveLength(failed.length + 1);
  });

  it('--limit N counts matches: pages of 50 are read until N match (3 pages for 2), and a terminal is told', async () => {
    const r = await run(['sessions', 'list', '--status', 'failed', '--limit', '2', '--page-size', '50', '-q'], { stderrTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    expect(r.stderr).toContain('read 3 pages of sessions to find 2 matches');
    // A further match was seen: the listing says more remain.
    expect(r.stderr).toMatch(/more: /);
    const all = await run(['sessions', 'list', '--status', 'failed', '--all', '--page-size', '50', '-q'], { stderrTTY: true });
    expect(lines(all.stdout)).toEqual([...failed].sort());
    expect(all.stderr).toContain(`read ${TOTAL / 50} pages of sessions to find ${failed.length} matches`);
    expect(all.stderr).not.toMatch(/more: /);
  });

  it('the bulk verbs, sessions wait and stats select the same sessions', async () => {
    const dry = await run(['sessions', 'archive', '--status', 'failed', '--dry-run', '-q']);
    expect(dry.code).toBe(0);
    expect(lines(dry.stdout)).toEqual([...failed].sort());
    const wait = await run(['sessions', 'wait', '--status', 'failed', '-q', '--timeout', '30s']);
    expect(wait.code).toBe(11);
    expect(lines(wait.stdout)).toEqual([...failed].sort());
    const stats = await run(['stats', '--status', 'failed', '-o', 'json', '--no-cache']);
    expect(stats.code).toBe(0);
    expect(JSON.stringify(JSON.parse(stats.stdout))).toContain(`"sessions":${failed.length}`);
  });

  it("the README's pipeline (list --status idle -l team=infra -q | archive - --yes) archives every match", async () => {
    const list = await run(['sessions', 'list', '--status', 'idle', '-l', 'team=infra', '-q']);
    expect(lines(list.stdout)).toEqual([...infra].sort());
    const archive = await run(['sessions', 'archive', '-', '--yes'], { stdin: list.stdout });
    expect(archive.code).toBe(0);
    for (const id of infra) expect((await call(t.emu, 'GET', `/v1/sessions/${id}`)).body.archived_at).toBeTruthy();
  });

  it('--error-type selects by the session.error that ended the last turn, everywhere the selectors are', async () => {
    const r = await run(['sessions', 'list', '--error-type', 'timeout', '-q']);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([...timeouts].sort());
    const both = await run(['sessions', 'list', '--error-type', 'timeout,model_error', '--status', 'failed', '-q']);
    expect(lines(both.stdout)).toEqual([...failed].sort());
    const dry = await run(['sessions', 'interrupt', '--error-type', 'model_error', '--dry-run', '-q']);
    expect(lines(dry.stdout)).toEqual(failed.filter((id) => !timeouts.includes(id)).sort());
    expect((await run(['sessions', 'list', '--error-type', 'quota_exceeded', '-q'])).stdout).toBe('');
    const bad = await run(['sessions', 'list', '--error-type', 'model error']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --error-type takes/);
  });
});
