// Rules proved here: R-THREAD-1, R-THREAD-2, R-THREAD-3, R-THREAD-4, R-THREAD-5, R-THREAD-7, R-HIST-1
import { beforeAll, describe, expect, it } from 'vitest';
import { emuEnv, svc, type SvcOptions } from '../helpers/cli';
import { call, useEmulator, requestCount } from '../helpers/emulator';
import { createSession, history, send, waitIdleEvents, waitUntil } from '../helpers/sse';

const t = useEmulator();
const run = (args: string[], o: SvcOptions = {}) => svc(args, { env: emuEnv(t.emu), ...o });
const requests = (): Promise<number> => requestCount(t.emu);

/** A session whose coordinator delegated to two child threads, all finished. */
let sid: string;
beforeAll(async () => {
  sid = (await createSession(t.emu)).id;
  await send(t.emu, sid, '/delegate 2');
  await waitIdleEvents(t.emu, sid, 1);
});

const serverThreads = async (): Promise<any[]> => (await call(t.emu, 'GET', `/v1/sessions/${sid}/threads?page_size=1000`)).body.items;

describe('svc threads', () => {
  it('R-THREAD-1 R-THREAD-2 lists the coordinator and its children as JSON, NDJSON, IDs and a table', async () => {
    const server = await serverThreads();
    const json = JSON.parse((await run(['threads', 'list', sid])).stdout);
    expect(json).toEqual(server);
    expect(json.filter((x: any) => x.parent_thread_id === null)).toHaveLength(1);
    expect(
      json
        .filter((x: any) => x.parent_thread_id !== null)
        .map((x: any) => x.agent_name)
        .sort(),
    ).toEqual(['worker-1', 'worker-2']);
    for (const th of json) expect(th).toMatchObject({ interrupted: false, control_epoch: expect.stringMatching(/^\d+$/) });
    const nd = (await run(['threads', 'list', sid, '-o', 'ndjson'])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id);
    expect(nd).toEqual(server.map((x) => x.id));
    expect((await run(['threads', 'list', sid, '-q'])).stdout).toBe(server.map((x) => x.id).join('\n') + '\n');
    const table = await run(['threads', 'list', sid], { stdoutTTY: true, columns: 200, env: { ...emuEnv(t.emu), NO_COLOR: '1' } });
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+AGENT\s+PARENT\s+STATUS\s+EPOCH\s+ARCHIVED$/);
    const coordinator = server.find((x) => x.parent_thread_id === null);
    expect(table.stdout).toMatch(new RegExp(`\\S+\\s+worker-1\\s+${coordinator.id}\\s+idle\\s+0`));
  });

  it('follows pages with --all and stops at --limit', async () => {
    const server = await serverThreads();
    const all = JSON.parse((await run(['threads', 'list', sid, '--all', '--page-size', '1'])).stdout);
    expect(all.map((x: any) => x.id)).toEqual(server.map((x) => x.id));
    expect(JSON.parse((await run(['threads', 'list', sid, '--limit', '2', '--page-size', '1'])).stdout)).toHaveLength(2);
  });

  it('gets one thread', async () => {
    const [, child] = await serverThreads();
    const r = await run(['threads', 'get', sid, child.id]);
    expect(JSON.parse(r.stdout)).toEqual(child);
    const rec = await run(['threads', 'get', sid, child.id], { stdoutTTY: true, env: { ...emuEnv(t.emu), NO_COLOR: '1' } });
    expect(rec.stdout).toMatch(new RegExp(`^id\\s+${child.id}$`, 'm'));
  });

  it("R-HIST-1 R-THREAD-3 R-THREAD-4 sessions events --thread lists only that thread's history; the session's carries every thread, children tagged", async () => {
    const [, child] = await serverThreads();
    const own = JSON.parse((await run(['sessions', 'events', sid, '--thread', child.id, '--all'])).stdout);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((e: any) => e.session_thread_id === child.id)).toBe(true);
    expect(own.some((e: any) => e.type === 'agent.message')).toBe(true);
    const whole = await history(t.emu, `/v1/sessions/${sid}`);
    expect(own.map((e: any) => e.id)).toEqual(whole.filter((e) => e.session_thread_id === child.id).map((e) => e.id));
    expect(whole.find((e) => e.type === 'user.message').session_thread_id).toBeUndefined();
  });

  it('R-THREAD-5 R-THREAD-7 archives a running child thread (204 printed as {id, archived}); repeating is exit 0', async () => {
    const s = (await createSession(t.emu)).id;
    await send(t.emu, s, '/delegate 1 200');
    const child = await waitUntil(
      async () => (await call(t.emu, 'GET', `/v1/sessions/${s}/threads`)).body.items.find((x: any) => x.parent_thread_id !== null && x.status === 'running'),
      'a running child',
    );
    const r = await run(['threads', 'archive', s, child.id]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: child.id, archived: true });
    const held = (await call(t.emu, 'GET', `/v1/sessions/${s}/threads/${child.id}`)).body;
    expect(held).toMatchObject({ status: 'cancelled', archived_at: expect.any(String) });
    const again = await run(['threads', 'archive', s, child.id], { stdoutTTY: true });
    expect([again.code, again.stdout, again.stderr]).toEqual([0, '', `archived ${child.id}\n`]);
  });

  it('7 for archiving the coordinator thread', async () => {
    const coordinator = (await serverThreads()).find((x) => x.parent_thread_id === null);
    const r = await run(['threads', 'archive', sid, coordinator.id]);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('type=failed_precondition_error');
  });

  it('6 for a thread of another session', async () => {
    const other = (await createSession(t.emu)).id;
    const [, child] = await serverThreads();
    const r = await run(['threads', 'get', other, child.id]);
    expect(r.code).toBe(6);
  });

  it('2 for a missing thread argument or a bad page size, before any request', async () => {
    const before = await requests();
    const missing = await run(['threads', 'get', sid]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    const size = await run(['threads', 'list', sid, '--page-size', '0']);
    expect([size.code, size.stdout]).toEqual([2, '']);
    expect(size.stderr).toBe('error: --page-size must be between 1 and 1000 (got 0)\n');
    expect(await requests()).toBe(before);
  });

  it('every verb has an example', async () => {
    for (const v of ['list', 'get', 'archive']) expect((await run(['threads', v, '--help'])).stdout).toContain(`$ svc threads ${v} `);
  });
});
