import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { Capture, emuEnv, svc, tempConfigDir, type SvcOptions, type SvcResult, ndjson } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';

const t = useEmulator({ modelStepMs: 5 });
const run = (args: string[], o: SvcOptions = {}) => svc(args, { ...o, env: emuEnv(t.emu, o.env) });

let agentId: string | undefined;
const agent = async () => (agentId ??= (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'parallel-bot', model: 'scripted-1' } })).body.id as string);
/** A message file in a fresh folder. */
function messageFile(content: string): string {
  const file = join(tempConfigDir(), 'tasks.ndjson');
  writeFileSync(file, content);
  return file;
}
const sessionsLabelled = async (batch: string): Promise<any[]> =>
  (await call(t.emu, 'GET', '/v1/sessions?page_size=1000')).body.items.filter((s: any) => s.metadata?.batch === batch);

describe('svc run --parallel N --message-file F.ndjson', () => {
  it('starts one session per line (a JSON string or an object with message/text, title, metadata) and prints each result as it settles', async () => {
    const file = messageFile(
      ['"first"', '', '{"message":"second","metadata":{"batch":"p1"}}', '{"text":"third","title":"Third","metadata":{"batch":"p1"}}'].join('\n') + '\n',
    );
    const r = await run(['run', '--agent', await agent(), '--parallel', '2', '--message-file', file, '-o', 'ndjson']);
    expect(r.code).toBe(0);
    const results = ndjson(r.stdout).sort((a, b) => a.line - b.line);
    expect(results).toEqual([
      { line: 1, session_id: expect.any(String), status: 'idle', ok: true, exit: 0, reply: 'You said: first' },
      { line: 3, session_id: expect.any(String), status: 'idle', ok: true, exit: 0, reply: 'You said: second' },
      { line: 4, session_id: expect.any(String), status: 'idle', ok: true, exit: 0, reply: 'You said: third' },
    ]);
    expect(new Set(results.map((x) => x.session_id)).size).toBe(3);
    expect(r.stderr).toBe('idle 3, failed 0 of 3 lines\n');
    const made = await sessionsLabelled('p1');
    expect(made.map((s) => s.title).sort()).toEqual(['', 'Third']);
  });

  it('runs at most N turns at once: the sessions of four slow lines overlap two at a time', async () => {
    const file = messageFile(Array.from({ length: 4 }, () => JSON.stringify({ message: '/slow 40 a b c d e', metadata: { batch: 'p2' } })).join('\n'));
    const r = await run(['run', '--agent', await agent(), '--parallel', '2', '--message-file', file, '-o', 'ndjson']);
    expect(r.code).toBe(0);
    const spans = (await sessionsLabelled('p2')).map((s) => [Date.parse(s.created_at), Date.parse(s.updated_at)]);
    expect(spans).toHaveLength(4);
    const overlap = Math.max(...spans.map(([at]) => spans.filter(([from, to]) => from <= at && at < to).length));
    expect(overlap).toBe(2);
  });

  it("a second run with the same --idempotency-key replays each line's create: no second session; -q prints the session IDs", async () => {
    const file = messageFile('{"message":"once","metadata":{"batch":"p3"}}\n{"message":"twice","metadata":{"batch":"p3"}}\n');
    const args = ['run', '--agent', await agent(), '--parallel', '2', '--message-file', file, '--idempotency-key', 'batch-p3'];
    const first = await run([...args, '-o', 'ndjson']);
    const again = await run([...args, '-q']);
    expect([first.code, again.code]).toEqual([0, 0]);
    const ids = ndjson(first.stdout).map((x) => x.session_id);
    expect(again.stdout.trim().split('\n').sort()).toEqual(ids.sort());
    expect(await sessionsLabelled('p3')).toHaveLength(2);
  });

  it('a re-run with the same --idempotency-key and lines sends no second message: each line reports the turn already taken', async () => {
    const file = messageFile('{"message":"once only","metadata":{"batch":"p5"}}\n{"message":"also once","metadata":{"batch":"p5"}}\n');
    const args = ['run', '--agent', await agent(), '--parallel', '2', '--message-file', file, '--idempotency-key', 'batch-p5', '-o', 'ndjson'];
    const first = await run(args);
    const again = await run(args);
    expect([first.code, again.code]).toEqual([0, 0]);
    const byLine = (r: SvcResult) => ndjson(r.stdout).sort((a, b) => a.line - b.line);
    expect(byLine(again)).toEqual(byLine(first));
    for (const s of await sessionsLabelled('p5')) {
      const events = (await call(t.emu, 'GET', `/v1/sessions/${s.id}/events?page_size=1000`)).body.items;
      expect(events.filter((e: any) => e.type === 'user.message')).toHaveLength(1);
    }
  });

  it('a changed line under the same --idempotency-key is a conflict: exit 7 naming the line, and nothing is sent to its session', async () => {
    const args = (file: string) => ['run', '--agent', a, '--parallel', '1', '--message-file', file, '--idempotency-key', 'batch-p6', '-o', 'ndjson'];
    const a = await agent();
    expect((await run(args(messageFile('{"message":"first wording","metadata":{"batch":"p6"}}\n')))).code).toBe(0);
    const [s] = await sessionsLabelled('p6');
    const history = async () => (await call(t.emu, 'GET', `/v1/sessions/${s.id}/events?page_size=1000`)).body.items;
    const before = await history();
    const r = await run(args(messageFile('{"message":"second wording","metadata":{"batch":"p6"}}\n')));
    expect(r.code).toBe(7);
    // Under an explicit -o ndjson the failure is the JSON error object.
    expect(r.stderr).toContain('{"error":{"type":"cli_error","message":"session ');
    expect(r.stderr).toContain('made for line 1 under this --idempotency-key, already holds another message');
    expect(ndjson(r.stdout)).toMatchObject([{ line: 1, status: 'failed', ok: false }]);
    // Its history is as the first run left it: no message, interrupt or other event was sent to it.
    const events = await history();
    expect(events).toEqual(before);
    expect(events.filter((e: any) => e.type === 'user.message').map((e: any) => e.data.content[0].text)).toEqual(['first wording']);
  });

  it('a line whose turn ends in session.error is reported failed and the exit is 11; the other lines still run', async () => {
    const file = messageFile('"fine"\n"/error"\n"also fine"\n');
    const r = await run(['run', '--agent', await agent(), '--parallel', '3', '--message-file', file, '-o', 'json']);
    expect(r.code).toBe(11);
    const results = JSON.parse(r.stdout).sort((a: any, b: any) => a.line - b.line);
    expect(results.map((x: any) => [x.line, x.status, x.ok])).toEqual([
      [1, 'idle', true],
      [2, 'failed', false],
      [3, 'idle', true],
    ]);
    expect(results[1].session_id).toEqual(expect.any(String));
    expect(results[1].error.message).toBeTruthy();
    expect(r.stderr).toContain('idle 2, failed 1 of 3 lines');
  });

  it('--timeout bounds the whole command: turns still running are reported with their sessions and the exit is 124', async () => {
    const file = messageFile('"quick"\n"/slow 100"\n');
    const r = await run(['run', '--agent', await agent(), '--parallel', '2', '--message-file', file, '--timeout', '1s', '-o', 'ndjson']);
    expect(r.code).toBe(124);
    const results = ndjson(r.stdout).sort((a, b) => a.line - b.line);
    expect(results.map((x) => [x.line, x.status, x.ok])).toEqual([
      [1, 'idle', true],
      [2, 'timeout', false],
    ]);
    expect((await call(t.emu, 'GET', `/v1/sessions/${results[1].session_id}`)).body.status).toBe('running');
    expect(r.stderr).toContain('still running 1');
  });

  it('Ctrl-C stops starting lines, reports the turns in flight as abandoned (their sessions go on), and exits 130', async () => {
    const file = messageFile(
      Array.from({ length: 5 }, (_, i) => JSON.stringify({ message: '/slow 100', metadata: { batch: `p4` }, title: `t${i}` })).join('\n'),
    );
    const stdin = new PassThrough();
    stdin.end();
    const stdout = new Capture();
    const stderr = new Capture();
    const ctrlC = new AbortController();
    const env = { SVC_CONFIG_DIR: tempConfigDir(), ...emuEnv(t.emu) };
    const code = main(['run', '--agent', await agent(), '--parallel', '2', '--message-file', file, '-o', 'ndjson'], {
      stdin,
      stdout,
      stderr,
      env,
      cwd: process.cwd(),
      signal: ctrlC.signal,
    });
    await waitUntil(async () => (await sessionsLabelled('p4')).filter((s) => s.status === 'running').length === 2, 'two turns running');
    ctrlC.abort();
    expect(await code).toBe(130);
    const results = ndjson(stdout.text);
    expect(results).toHaveLength(2);
    expect(results.every((x) => x.status === 'abandoned' && x.exit === 130 && !x.ok && typeof x.session_id === 'string')).toBe(true);
    // Abandoned, not interrupted: the sessions ran on to the end of their turns.
    expect(results[0].error.message).toContain(`svc sessions interrupt ${results[0].session_id}`);
    await waitUntil(async () => (await sessionsLabelled('p4')).every((s) => s.status === 'idle'), 'the abandoned turns to end');
    for (const s of await sessionsLabelled('p4')) expect(s.stop_reason?.type).toBe('end_turn');
    expect(stderr.text).toContain('not started 3');
    expect(await sessionsLabelled('p4')).toHaveLength(2);
  });

  it('a bad line, a missing file or a flag --parallel cannot honour is exit 2 naming it, with nothing sent', async () => {
    const a = await agent();
    const before = await requestCount(t.emu);
    for (const [args, named] of [
      [['--message-file', messageFile('"ok"\n{"message":\n')], 'line 2: not JSON'],
      [['--message-file', messageFile('"ok"\n{"msg":"x"}\n')], 'line 2: unknown member "msg"'],
      [['--message-file', messageFile('42\n')], 'line 1'],
      [['--message-file', messageFile('{"message":"x","metadata":{"n":1}}\n')], '"metadata"'],
      [['--message-file', messageFile('\n\n')], 'holds no message'],
      [['--message-file', join(tempConfigDir(), 'missing.ndjson')], 'missing.ndjson'],
      [['--message', 'hi'], '--message-file'],
      [['--message-file', messageFile('"x"\n'), '--session', 'sesn_1'], '--session'],
      [['--message-file', messageFile('"x"\n'), '--deltas'], '--deltas'],
    ] as const) {
      const r = await run(['run', '--agent', a, '--parallel', '2', ...args]);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(named);
    }
    const zero = await run(['run', '--agent', a, '--parallel', '0', '--message-file', messageFile('"x"\n')]);
    expect([zero.code, zero.stderr]).toEqual([2, expect.stringContaining('--parallel')]);
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('a 5 MB file of 1 KB lines is read whole (each line is its own request): its bad last line is what is refused, not its size', async () => {
    const a = await agent();
    const before = await requestCount(t.emu);
    const kb = JSON.stringify('x'.repeat(1020));
    const file = messageFile(Array.from({ length: 5000 }, () => kb).join('\n') + '\n{"message":\n');
    const r = await run(['run', '--agent', a, '--parallel', '2', '--message-file', file]);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(`error: ${file} line 5001: not JSON: give a JSON string or an object with "message" per line\n`);
    expect(await requestCount(t.emu)).toBe(before);
  });

  it("a line over 4 MiB is exit 2 naming it and saying the bound is svc's own, with nothing sent", async () => {
    const a = await agent();
    const before = await requestCount(t.emu);
    const file = messageFile(`"ok"\n${JSON.stringify('y'.repeat(4 * 1024 * 1024))}\n"after"\n`);
    const r = await run(['run', '--agent', a, '--parallel', '2', '--message-file', file]);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(`error: ${file} line 2 is longer than 4 MiB: svc reads at most 4 MiB per line\n`);
    expect(await requestCount(t.emu)).toBe(before);
  });
});
