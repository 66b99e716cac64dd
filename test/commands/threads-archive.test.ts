import { describe, expect, it } from 'vitest';
import { emuEnv, svc, type SvcOptions, ndjson } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { createSession, send, waitIdleEvents } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 5 });
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, o.env) });

/** A session whose coordinator delegated to `n` child threads, all finished: its ID, the children and the coordinator. */
async function delegated(n: number): Promise<{ sid: string; children: string[]; coordinator: string }> {
  const sid = (await createSession(t.emu)).id;
  await send(t.emu, sid, `/delegate ${n}`);
  await waitIdleEvents(t.emu, sid, 1);
  const items: any[] = (await call(t.emu, 'GET', `/v1/sessions/${sid}/threads?page_size=1000`)).body.items;
  const children = items
    .filter((x) => x.parent_thread_id !== null)
    .map((x) => x.id)
    .sort();
  return { sid, children, coordinator: items.find((x) => x.parent_thread_id === null).id };
}
const archivedAt = async (sid: string, tid: string) => (await call(t.emu, 'GET', `/v1/sessions/${sid}/threads/${tid}`)).body.archived_at;

describe('svc threads archive on many', () => {
  it('archives several child threads with --yes: one result per thread in input order, a summary, and a re-run converges as unchanged', async () => {
    const { sid, children } = await delegated(3);
    const r = await run(['threads', 'archive', sid, ...children, '--yes', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(ndjson(r.stdout)).toEqual(children.map((id) => ({ id, action: 'archive', ok: true })));
    expect(r.stderr).toBe('archived 3, unchanged 0, failed 0\n');
    for (const id of children) expect(await archivedAt(sid, id)).toEqual(expect.any(String));
    const again = await run(['threads', 'archive', sid, '-', '--yes', '-o', 'ndjson'], { stdin: children.join('\n') + '\n' });
    expect(again.code).toBe(0);
    expect(ndjson(again.stdout).every((x) => x.ok && x.unchanged)).toBe(true);
    expect(again.stderr).toBe('archived 0, unchanged 3, failed 0\n');
  });

  it('--status selects the child threads in those statuses, never the coordinator', async () => {
    const { sid, children, coordinator } = await delegated(2);
    const dry = await run(['threads', 'archive', sid, '--status', 'idle', '--dry-run', '-q']);
    expect(dry.code).toBe(0);
    expect(dry.stdout.trim().split('\n').sort()).toEqual(children);
    expect(dry.stderr).toBe('dry run: would archive 2 threads; nothing was sent\n');
    for (const id of children) expect(await archivedAt(sid, id)).toBeNull();
    const r = await run(['threads', 'archive', sid, '--status', 'idle', '--yes', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(
      JSON.parse(r.stdout)
        .map((x: any) => x.id)
        .sort(),
    ).toEqual(children);
    expect(await archivedAt(sid, coordinator)).toBeNull();
    const none = await run(['threads', 'archive', sid, '--status', 'running', '--yes']);
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', 'nothing matched\n']);
  });

  it('more than one thread off a terminal without --yes is exit 2 with nothing sent', async () => {
    const { sid, children } = await delegated(2);
    const before = await requestCount(t.emu);
    const r = await run(['threads', 'archive', sid, ...children]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: archive 2 threads: pass --yes to confirm .*nothing was sent\n$/);
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('every thread is attempted and the exit is the first failure in input order: 6 for a missing thread, 7 for the coordinator; --ignore-not-found makes a 404 a success', async () => {
    const { sid, children, coordinator } = await delegated(1);
    const r = await run(['threads', 'archive', sid, 'sthr_missing', coordinator, children[0], '--yes', '-o', 'json']);
    expect(r.code).toBe(6);
    expect(JSON.parse(r.stdout).map((x: any) => [x.id, x.ok, x.error?.type])).toEqual([
      ['sthr_missing', false, 'resource_not_found_error'],
      [coordinator, false, 'failed_precondition_error'],
      [children[0], true, undefined],
    ]);
    expect(r.stderr).toBe('archived 1, unchanged 0, failed 2\n');
    const ignored = await run(['threads', 'archive', sid, 'sthr_missing', children[0], '--yes', '--ignore-not-found', '-o', 'ndjson']);
    expect(ignored.code).toBe(0);
    expect(ndjson(ignored.stdout)).toEqual([
      { id: 'sthr_missing', action: 'archive', ok: true, unchanged: true },
      { id: children[0], action: 'archive', ok: true, unchanged: true },
    ]);
  });

  it('no thread and no --status, IDs with --status, or a bad --concurrency is exit 2 before any request', async () => {
    const before = await requestCount(t.emu);
    for (const args of [
      ['threads', 'archive', 'sesn_x'],
      ['threads', 'archive', 'sesn_x', 'sthr_a', '--status', 'idle'],
      ['threads', 'archive', 'sesn_x', 'sthr_a', 'sthr_b', '--concurrency', '0'],
      ['threads', 'archive', 'sesn_x', '--status', ','],
    ]) {
      const r = await run(args);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(await requestCount(t.emu)).toBe(before);
  });
});
