import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseTop } from '../../src/commands/top/parse';
import { runTop } from '../../src/commands/top/run';
import { emuEnv, ndjson, startSvc, svc, type SvcOptions } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { send, waitSession, waitUntil } from '../helpers/sse';
import { ttyCtx } from '../live/tty';

const t = useEmulator({ modelStepMs: 5 });
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, o.env) });

/** A session of `agentId` labelled `set`; `text` drives one turn to its end (`/error …` ends it on a session.error). */
async function settled(agentId: string, set: string, title: string, text?: string): Promise<string> {
  const s = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agentId, title, metadata: { set } } })).body;
  if (text === undefined) return s.id;
  await send(t.emu, s.id, text);
  await waitSession(t.emu, s.id, (x) => x.status === 'idle' && x.stop_reason, 'the turn ended');
  return s.id;
}

let agentId: string;
let failed: string;
let idle: string;
beforeAll(async () => {
  agentId = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'stater', model: 'scripted-1' } })).body.id;
  idle = await settled(agentId, 'st1', 'calm one', '/echo done');
  // Last, so the picker (newest first) offers it first.
  failed = await settled(agentId, 'st1', 'broken one', '/error model_error');
  expect((await call(t.emu, 'GET', `/v1/sessions/${failed}`)).body).toMatchObject({ status: 'idle', stop_reason: { type: 'error' } });
});

const rowOf = (text: string, id: string) => text.split('\n').find((l) => l.includes(id)) ?? '';

describe('the derived state in every human view', () => {
  it('sessions list and get show a turn that ended in session.error as failed, the others as idle', async () => {
    const r = await run(['sessions', 'list', '-l', 'set=st1', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(rowOf(r.stdout, failed)).toMatch(/broken one\s+failed\s/);
    expect(rowOf(r.stdout, idle)).toMatch(/calm one\s+idle\s/);
    const get = await run(['sessions', 'get', failed, '-o', 'table']);
    expect(get.stdout).toMatch(new RegExp(`^id +${failed}\nstate +failed\n`));
    expect(get.stdout).toMatch(/^status +idle$/m);
  });

  it('JSON output stays the service object: status idle with its stop_reason, no derived word', async () => {
    const r = await run(['sessions', 'get', failed, '-o', 'json']);
    const obj = JSON.parse(r.stdout);
    expect(obj).toMatchObject({ status: 'idle', stop_reason: { type: 'error' } });
    expect(r.stdout).not.toContain('failed');
  });

  it('the -w rows show failed', async () => {
    const w = startSvc(t.emu, ['sessions', 'list', '-w', '-l', 'set=st1', '--interval', '50ms', '--timeout', '200ms'], { stdoutTTY: true });
    expect(await w.code).toBe(0);
    expect(rowOf(w.stdout.text, failed)).toMatch(new RegExp(`^ADDED\\s+${failed}\\s+failed\\s+broken one`));
    expect(rowOf(w.stdout.text, idle)).toMatch(new RegExp(`^ADDED\\s+${idle}\\s+idle\\s+calm one`));
  });

  it('the picker offers the failed session as failed', async () => {
    const r = await run(['sessions', 'get', '-o', 'json'], { stdin: '\r', stdinTTY: true, stdoutTTY: true, stderrTTY: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`${failed}\\s+broken one\\s+failed\\s`));
    expect(r.stderr).toMatch(new RegExp(`${idle}\\s+calm one\\s+idle\\s`));
  });

  it("sessions wait's table shows each settled session's state", async () => {
    const r = await run(['sessions', 'wait', failed, idle, '-o', 'table']);
    expect(rowOf(r.stdout, failed)).toMatch(/broken one\s+failed\s/);
    expect(rowOf(r.stdout, idle)).toMatch(/calm one\s+idle\s/);
  });

  it('sessions export names the state with the error type the history holds', async () => {
    const r = await run(['sessions', 'export', failed, '--format', 'md']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('failed (model_error)');
  });

  it('completion describes an untitled session by its state', async () => {
    const untitled = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agentId } })).body.id;
    await send(t.emu, untitled, '/error rate_limited');
    await waitSession(t.emu, untitled, (x) => x.stop_reason?.type === 'error', 'the error stop');
    const r = await run(['__complete', '--', 'sessions', 'get', '']);
    expect(r.stdout).toContain(`${untitled}\tfailed\n`);
  });
});

describe('svc top shows and filters the derived state', () => {
  let stop: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('the STATUS cell says failed, and the / filter finds it by that word, which nothing else in the row holds', async () => {
    const { ctx, stdin, stdout } = ttyCtx(t.emu);
    const ended = runTop(ctx, parseTop([], { interval: '100ms', selector: 'set=st1' }));
    stop = () => (stdin.press('q'), ended);
    const screen = () => stdout.plain.slice(stdout.plain.lastIndexOf('svc top │'));
    await waitUntil(() => screen().includes(failed) && screen().includes(idle), 'both rows');
    expect(rowOf(screen(), failed)).toMatch(/broken one\s+\S+\s+failed\s/);
    stdin.press('/');
    for (const ch of 'failed') stdin.press(ch);
    stdin.press('\r');
    await waitUntil(() => screen().includes('1 of 2 rows'), 'the filtered board');
    expect(screen()).toContain(failed);
    expect(screen()).not.toContain(idle);
  });
});

describe('--status: the service statuses and the derived states, strictly', () => {
  it('--status failed selects just the failed session; --status idle selects it too (its status is idle)', async () => {
    const ids = async (status: string) => (await run(['sessions', 'list', '-l', 'set=st1', '--status', status, '-q'])).stdout.trim().split('\n').sort();
    expect(await ids('failed')).toEqual([failed]);
    expect(await ids('idle')).toEqual([failed, idle].sort());
    expect(await ids('running,failed')).toEqual([failed]);
  });

  it('an unknown value is exit 2 on every verb that takes it, with a did-you-mean and the valid values, and nothing sent', async () => {
    const before = await requestCount(t.emu);
    for (const args of [
      ['sessions', 'list', '--status', 'runing'],
      ['sessions', 'list', '--status', 'idle,runing', '-w'],
      ['sessions', 'archive', '--status', 'runing', '--yes'],
      ['sessions', 'delete', '--status', 'runing', '--yes'],
      ['sessions', 'wait', '--status', 'runing'],
      ['sessions', 'interrupt', '--status', 'runing', '--yes'],
      ['listen', '--status', 'runing', '--exec', 'true'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toBe(
        'error: unknown --status "runing" (did you mean running?): use idle, running, rescheduling, terminated, failed, interrupted, waiting\n',
      );
    }
    const top = await run(['top', '--status', 'runing'], { stdoutTTY: true });
    expect(top.code).toBe(2);
    expect(top.stderr).toContain('did you mean running?');
    const none = await run(['sessions', 'list', '--status', 'no-such-state']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('error: unknown --status "no-such-state": use idle, running, rescheduling, terminated, failed, interrupted, waiting\n');
    const threads = await run(['threads', 'archive', 'sesn_x', '--status', 'canceled,faild', '--yes']);
    expect(threads.code).toBe(2);
    expect(threads.stderr).toContain(
      'unknown --status "canceled" (did you mean cancelled?): use idle, running, rescheduling, terminated, cancelled, interrupted',
    );
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('with an unreachable service an unknown value is still exit 2 (checked before any request)', async () => {
    const r = await svc(['sessions', 'list', '--status', 'no-such-state', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown --status "no-such-state"');
  });

  it('archive --status failed --yes archives just the failed one', async () => {
    const gone = await settled(agentId, 'st2', 'to archive', '/error model_error');
    const kept = await settled(agentId, 'st2', 'to keep', '/echo fine');
    const r = await run(['sessions', 'archive', '-l', 'set=st2', '--status', 'failed', '--yes', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(ndjson(r.stdout).map((x) => x.id)).toEqual([gone]);
    expect((await call(t.emu, 'GET', `/v1/sessions/${gone}`)).body.archived_at).not.toBeNull();
    expect((await call(t.emu, 'GET', `/v1/sessions/${kept}`)).body.archived_at).toBeNull();
  });
});
