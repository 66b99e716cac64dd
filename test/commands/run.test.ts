import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runRunCommand } from '../../src/commands/run/index';
import { Ctx } from '../../src/runtime/context';
import { Capture, emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, getSession, history, waitUntil } from '../helpers/sse';
import { background, stats } from '../api/stream/helpers';

const t = useEmulator({ modelStepMs: 1 });
const env = () => emuEnv(t.emu);

async function agent(): Promise<string> {
  return (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'runner', model: 'scripted-1' } })).body.id;
}
const sessionOf = (stderr: string) => /session (sesn_\S+)/.exec(stderr)?.[1] ?? '';

describe('svc run', () => {
  it('creates a session, sends the message and prints the final agent message (exit 0)', async () => {
    const r = await svc(['run', '--agent', await agent(), '--message', '/echo hello from the agent'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('hello from the agent\n');
    const sid = sessionOf(r.stderr);
    const events = await history(t.emu, `/v1/sessions/${sid}`);
    expect(events[0]).toMatchObject({ type: 'user.message', data: { content: [{ type: 'text', text: '/echo hello from the agent' }] } });
    expect((await getSession(t.emu, sid)).status).toBe('idle');
  });

  it('subscribes before it sends: -o ndjson prints every event of the new session, its first message included', async () => {
    const r = await svc(['run', '--agent', await agent(), '--message', '/echo every event', '-o', 'ndjson'], { env: env() });
    expect(r.code).toBe(0);
    const printed = r.stdout.trim().split('\n');
    const events = await history(t.emu, `/v1/sessions/${sessionOf(r.stderr)}`);
    // Lines are the frames' data as received.
    expect(printed).toEqual(events.map((e) => JSON.stringify(e)));
    expect(JSON.parse(printed[0]).type).toBe('user.message');
  });

  it('-o ndjson --deltas includes agent.delta lines', async () => {
    const r = await svc(['run', '--agent', await agent(), '--message', '/echo one two', '-o', 'ndjson', '--deltas'], { env: env() });
    expect(r.code).toBe(0);
    const deltas = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === 'agent.delta');
    expect(deltas.map((d) => d.data.delta).join('')).toBe('one two');
  });

  it('reuses --session and reads the message from standard input or a file', async () => {
    const s = await createSession(t.emu);
    const a = await svc(['run', '--session', s.id, '-'], { env: env(), stdin: '/echo from stdin' });
    expect([a.code, a.stdout]).toEqual([0, 'from stdin\n']);
    const dir = mkdtempSync(join(tmpdir(), 'svc-run-'));
    writeFileSync(join(dir, 'prompt.md'), '/echo from a file');
    const b = await svc(['run', '--session', s.id, '--message-file', 'prompt.md'], { env: env(), cwd: dir });
    expect([b.code, b.stdout]).toEqual([0, 'from a file\n']);
    expect((await history(t.emu, `/v1/sessions/${s.id}`)).filter((e) => e.type === 'user.message')).toHaveLength(2);
  });

  it('run - and --message-file send the message without its one trailing newline, as sessions send does', async () => {
    const s = await createSession(t.emu);
    expect((await svc(['run', '--session', s.id, '-'], { env: env(), stdin: 'piped\n' })).code).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'svc-run-'));
    writeFileSync(join(dir, 'prompt.md'), 'edited\n\n');
    expect((await svc(['run', '--session', s.id, '--message-file', 'prompt.md'], { env: env(), cwd: dir })).code).toBe(0);
    const sent = (await history(t.emu, `/v1/sessions/${s.id}`)).filter((e) => e.type === 'user.message').map((e) => e.data.content[0].text);
    expect(sent).toEqual(['piped', 'edited\n']);
  });

  it('exits 11 when the turn ends in session.error, printing nothing on stdout', async () => {
    const r = await svc(['run', '--agent', await agent(), '--message', '/error model_unavailable'], { env: env() });
    expect(r.code).toBe(11);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/error: the session turn ended in session.error/);
  });

  it('exits 13 naming the awaited event when the turn stops for a tool confirmation', async () => {
    const r = await svc(['run', '--agent', await agent(), '--message', '/confirm bash {"cmd":"ls"}'], { env: env() });
    expect(r.code).toBe(13);
    const s = await getSession(t.emu, sessionOf(r.stderr));
    expect(s.requires_action).toBe(true);
    expect(r.stderr).toContain(`svc sessions confirm ${s.id} ${s.stop_reason.event_ids[0]} --allow`);
  });

  it('exits 124 when --timeout elapses, leaving the session running', async () => {
    const r = await svc(['run', '--agent', await agent(), '--message', `/slow 100 ${'w '.repeat(40)}`, '--timeout', '300ms'], { env: env() });
    expect(r.code).toBe(124);
    expect(r.stderr).toMatch(/did not finish the turn after 0.3s \(--timeout\)/);
    const sid = sessionOf(r.stderr);
    expect((await getSession(t.emu, sid)).status).toBe('running');
    await call(t.emu, 'POST', `/v1/sessions/${sid}/events`, { body: { events: [{ type: 'user.interrupt', data: {} }] } });
  });

  it('exits 130 on Ctrl-C', async () => {
    const run = background(['run', '--agent', await agent(), '--message', `/slow 100 ${'w '.repeat(40)}`], env());
    await waitUntil(() => run.stderr.text.includes('session '), 'session created');
    const sid = sessionOf(run.stderr.text);
    await waitUntil(async () => (await getSession(t.emu, sid)).status === 'running', 'running');
    run.stop();
    const r = await run.run;
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    await call(t.emu, 'POST', `/v1/sessions/${sid}/events`, { body: { events: [{ type: 'user.interrupt', data: {} }] } });
  });

  it('rejects bad input with exit 2 and no request: no message, two messages, bad --timeout, no agent', async () => {
    const before = (await stats(t.emu)).requests ?? 0;
    const cases: Array<[string[], RegExp]> = [
      [['run', '--agent', 'agent_x'], /give the message once/],
      [['run', '--agent', 'agent_x', '--message', 'a', '-'], /give the message once/],
      [['run', '--agent', 'agent_x', '--message', 'a', '--timeout', 'later'], /--timeout takes a duration/],
      [['run', '--message', 'a'], /--agent is required/],
      [['run', '--agent', 'agent_x', '--message-file', '/nonexistent/prompt.md'], /cannot read \/nonexistent\/prompt.md: ENOENT/],
    ];
    for (const [args, message] of cases) {
      const r = await svc(args, { env: env() });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect((await stats(t.emu)).requests ?? 0).toBe(before);
  });

  it('--agent, --environment or --idempotency-key with --session is exit 2 with nothing sent: --session creates no session for them to shape', async () => {
    const s = await createSession(t.emu);
    const before = (await stats(t.emu)).requests ?? 0;
    for (const extra of [
      ['--agent', 'agent_x'],
      ['--environment', 'env_x'],
      ['--idempotency-key', 'k-1'],
    ]) {
      const r = await svc(['run', '--session', s.id, '--message', 'hi', ...extra], { env: env() });
      expect([r.code, r.stdout], extra.join(' ')).toEqual([2, '']);
      expect(r.stderr).toBe(`error: ${extra[0]} applies to a new session, and --session reuses one: drop one of the two\n`);
    }
    expect((await stats(t.emu)).requests ?? 0).toBe(before);
  });

  it('the run step works from typed options alone, no flags: a new session by agent name, the reply printed', async () => {
    await call(t.emu, 'POST', '/v1/agents', { body: { name: 'typed-runner', model: 'scripted-1' } });
    const stdout = new Capture();
    const stderr = new Capture();
    const stdin = new PassThrough();
    stdin.end();
    const ctx = new Ctx({ stdin, stdout, stderr, env: { ...env(), SVC_CONFIG_DIR: tempConfigDir() }, cwd: process.cwd() }, {});
    await runRunCommand(ctx, {
      mode: 'single',
      target: { agent: 'typed-runner', createKey: 'typed-run-1' },
      message: { from: 'text', text: '/echo typed options' },
      deltas: false,
      noLive: false,
    });
    expect(stdout.text).toBe('typed options\n');
    expect((await getSession(t.emu, sessionOf(stderr.text))).status).toBe('idle');
  });

  it('exits 6 for an unknown --session', async () => {
    const r = await svc(['run', '--session', 'sesn_missing', '--message', 'hi'], { env: env() });
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
  });

  it('issue 26: an explicit -o json prints one object with the final session and the reply, on a terminal too (no live view)', async () => {
    for (const stdoutTTY of [false, true]) {
      const r = await svc(['run', '--agent', await agent(), '--message', '/echo as an object', '-o', 'json'], { env: env(), stdoutTTY });
      expect(r.code, r.stderr).toBe(0);
      const o = JSON.parse(r.stdout);
      expect(o.session).toMatchObject({ id: sessionOf(r.stderr), status: 'idle' });
      expect(o.reply).toBe('as an object');
      expect(o.message).toMatchObject({ type: 'agent.message', data: { content: [{ type: 'text', text: 'as an object' }] } });
    }
  });

  it('issue 26: --jq applies to that object, -o yaml prints it as YAML, -q prints the session ID', async () => {
    const jq = await svc(['run', '--agent', await agent(), '--message', '/echo filtered', '--jq', '.session.status'], { env: env(), stdoutTTY: true });
    expect([jq.code, jq.stdout]).toEqual([0, 'idle\n']);
    const yaml = await svc(['run', '--agent', await agent(), '--message', '/echo in yaml', '-o', 'yaml'], { env: env() });
    expect(yaml.code).toBe(0);
    expect(yaml.stdout).toMatch(/^reply: in yaml$/m);
    expect(yaml.stdout).toMatch(/^session:\n {2}/m);
    const q = await svc(['run', '--agent', await agent(), '--message', '/echo quiet', '-q'], { env: env(), stdoutTTY: true });
    expect([q.code, q.stdout]).toEqual([0, `${sessionOf(q.stderr)}\n`]);
    const table = await svc(['run', '--agent', await agent(), '--message', '/echo plain', '-o', 'table'], { env: env(), stdoutTTY: true });
    expect([table.code, table.stdout]).toEqual([0, 'plain\n']);
  });

  it('issue 26: -o ndjson --jq filters each event; --deltas without -o ndjson is exit 2 before any request', async () => {
    const r = await svc(['run', '--agent', await agent(), '--message', '/echo typed', '-o', 'ndjson', '--jq', '.type'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toContain('agent.message');
    const before = (await stats(t.emu)).requests ?? 0;
    const bad = await svc(['run', '--agent', 'agent_x', '--message', 'hi', '--deltas', '-o', 'json'], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--deltas .* -o ndjson/);
    expect((await stats(t.emu)).requests ?? 0).toBe(before);
  });
});
