/** Exit codes a pipeline can trust: 11 failed or terminated, 12 interrupted (or input held), 13 waiting on a human. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { loadInk } from '../../src/live/load-ink';
import type { Io } from '../../src/runtime/io';
import { emuEnv, ndjson, svc, tempConfigDir } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { createSession, getSession, history, send, waitSession, waitUntil } from '../helpers/sse';
import { background } from '../api/stream/helpers';
import { FakeTtyIn, FakeTtyOut } from '../live/tty';

const t = useEmulator({ modelStepMs: 5 });
const env = () => emuEnv(t.emu);
const slow = `/slow 100 ${'w '.repeat(60)}`;
const sessionOf = (stderr: string) => /session (sesn_\w+)/.exec(stderr)?.[1] ?? '';
const errorLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('error: '));

async function agent(): Promise<string> {
  return (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'exits', model: 'scripted-1' } })).body.id;
}

async function interrupt(sid: string): Promise<void> {
  expect((await call(t.emu, 'POST', `/v1/sessions/${sid}/events`, { body: { events: [{ type: 'user.interrupt', data: {} }] } })).status).toBe(202);
}

/** A session whose turn was interrupted: idle, `interrupted`, nothing queued. */
async function interruptedSession(): Promise<string> {
  const s = await createSession(t.emu);
  await send(t.emu, s.id, slow);
  await waitSession(t.emu, s.id, (x) => x.status === 'running', 'running');
  await interrupt(s.id);
  await waitSession(t.emu, s.id, (x) => x.interrupted === true && x.status === 'idle', 'interrupted');
  return s.id;
}

/** A session that settled in one state: failed (`/error`), waiting (`/confirm`). */
async function settled(text: string, done: (s: any) => boolean): Promise<string> {
  const s = await createSession(t.emu);
  await send(t.emu, s.id, text);
  await waitSession(t.emu, s.id, (x) => x.status === 'idle' && done(x), text);
  return s.id;
}
const failed = () => settled('/error model_error', (x) => x.stop_reason?.type === 'error');
const waiting = () => settled('/confirm bash {"cmd":"ls"}', (x) => x.requires_action === true);

beforeAll(async () => {
  await Promise.all([loadInk(), import('react')]);
});

describe('svc run', () => {
  it('exits 12 when its turn is interrupted from elsewhere, naming the session and `svc sessions continue` (it exited 0)', async () => {
    const run = background(['run', '--agent', await agent(), '--message', slow], env());
    await waitUntil(() => sessionOf(run.stderr.text) || undefined, 'the session');
    const sid = sessionOf(run.stderr.text);
    await waitSession(t.emu, sid, (x) => x.status === 'running', 'running');
    await interrupt(sid);
    const r = await run.run;
    expect(r.code).toBe(12);
    expect(r.stdout).toBe('');
    expect(errorLines(r.stderr)).toEqual([
      `error: session ${sid} is interrupted: its turn stopped before the end; \`svc sessions continue ${sid}\` resumes it`,
    ]);
  });

  it('under an explicit -o json the interrupted turn is one JSON error line with session_id (exit 12)', async () => {
    const run = background(['run', '--agent', await agent(), '--message', slow, '-o', 'json'], env());
    await waitUntil(() => sessionOf(run.stderr.text) || undefined, 'the session');
    const sid = sessionOf(run.stderr.text);
    await waitSession(t.emu, sid, (x) => x.status === 'running', 'running');
    await interrupt(sid);
    const r = await run.run;
    expect(r.code).toBe(12);
    const last = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
    expect(last).toEqual({
      error: {
        type: 'session_interrupted',
        message: expect.stringContaining(`svc sessions continue ${sid}`),
        session_id: sid,
        state: 'interrupted',
        held: false,
      },
    });
  });

  it('under -o json a failed turn is a JSON line with session_id and error_type (exit 11), a waiting one with event_ids (exit 13)', async () => {
    const bad = await svc(['run', '--agent', await agent(), '--message', '/error model_error', '-o', 'json'], { env: env() });
    expect(bad.code).toBe(11);
    expect(bad.stdout).toBe('');
    const failure = JSON.parse(bad.stderr.trim().split('\n').at(-1)!).error;
    expect(failure).toMatchObject({ type: 'session_failed', state: 'failed', error_type: 'model_error', session_id: sessionOf(bad.stderr) });
    const ask = await svc(['run', '--agent', await agent(), '--message', '/confirm bash {"cmd":"ls"}', '-o', 'ndjson'], { env: env() });
    expect(ask.code).toBe(13);
    const sid = sessionOf(ask.stderr);
    const [eventId] = (await getSession(t.emu, sid)).stop_reason.event_ids;
    expect(JSON.parse(ask.stderr.trim().split('\n').at(-1)!).error).toEqual({
      type: 'session_waiting',
      message: `session ${sid} is waiting for a reply: answer with \`svc sessions confirm ${sid} ${eventId} --allow\` (or --deny)`,
      session_id: sid,
      state: 'waiting',
      event_ids: [eventId],
    });
  });

  it('--session on an interrupted session exits 12 at once, sending nothing, naming `svc sessions continue` and --continue (it hung)', async () => {
    const sid = await interruptedSession();
    const eventsBefore = (await history(t.emu, `/v1/sessions/${sid}`)).length;
    const before = await requestCount(t.emu);
    const r = await svc(['run', '--session', sid, '--message', '/echo never'], { env: env() });
    expect([r.code, r.stdout]).toEqual([12, '']);
    expect(r.stderr).toBe(
      `error: session ${sid} is interrupted: a message sent now would wait behind the interrupt; resume it with \`svc sessions continue ${sid}\` first, or rerun with --continue\n`,
    );
    // One read of the session; then nothing queued, nothing in the history.
    expect((await requestCount(t.emu)) - before).toBe(1);
    expect((await call(t.emu, 'GET', `/v1/sessions/${sid}/events/pending`)).body.items).toEqual([]);
    expect(await history(t.emu, `/v1/sessions/${sid}`)).toHaveLength(eventsBefore);
  });

  it('--session S --continue on an interrupted session sends the message, resumes the session and follows the turn (exit 0)', async () => {
    const sid = await interruptedSession();
    const r = await svc(['run', '--session', sid, '--continue', '--message', '/echo resumed'], { env: env() });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'resumed\n', '']);
    expect(await getSession(t.emu, sid)).toMatchObject({ status: 'idle', interrupted: false, stop_reason: { type: 'end_turn' } });
  });

  it('--session S --continue right after an interrupt (stopping or already interrupted) runs the turn (exit 0)', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, slow);
    await waitSession(t.emu, s.id, (x) => x.status === 'running', 'running');
    await interrupt(s.id);
    const r = await svc(['run', '--session', s.id, '--continue', '--message', '/echo after the stop'], { env: env() });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'after the stop\n', '']);
  });

  it('--continue without --session, or with --parallel, is exit 2 before any request', async () => {
    const before = await requestCount(t.emu);
    const alone = await svc(['run', '--agent', 'agent_x', '--message', 'hi', '--continue'], { env: env() });
    expect([alone.code, alone.stderr]).toEqual([2, 'error: --continue resumes an interrupted --session: a new session is never interrupted\n']);
    const file = join(mkdtempSync(join(tmpdir(), 'svc-exits-')), 'm.ndjson');
    writeFileSync(file, '"x"\n');
    for (const flag of ['--continue', '--interrupt-on-exit']) {
      const many = await svc(['run', '--agent', 'agent_x', '--parallel', '2', '--message-file', file, flag], { env: env() });
      expect([many.code, many.stdout], flag).toEqual([2, '']);
      expect(many.stderr.trim().split('\n')).toHaveLength(1);
      expect(many.stderr).toContain(flag);
    }
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('on a terminal the live view ends an interrupted turn with exit 12 too, the terminal restored', async () => {
    const stdin = new FakeTtyIn();
    const stdout = new FakeTtyOut();
    const stderr = new FakeTtyOut();
    const io: Io = { stdin, stdout, stderr, env: { ...env(), SVC_CONFIG_DIR: tempConfigDir() }, cwd: process.cwd() };
    const running = main(['run', '--agent', await agent(), '--message', slow], io);
    await waitUntil(() => stdout.plain.includes('q quit') && sessionOf(stderr.plain) !== '', 'the view');
    const sid = sessionOf(stderr.plain);
    await waitSession(t.emu, sid, (x) => x.status === 'running', 'running');
    await interrupt(sid);
    expect(await running).toBe(12);
    expect(stderr.plain).toContain(`error: session ${sid} is interrupted: its turn stopped before the end; \`svc sessions continue ${sid}\` resumes it`);
    expect(stdout.plain).toContain('the session was interrupted');
    expect(stdin.rawModes.at(-1)).toBe(false);
  });
});

describe('svc sessions wait', () => {
  it('exits 12 on an interrupted session (it exited 0 at once), naming `svc sessions continue`', async () => {
    const sid = await interruptedSession();
    const r = await svc(['sessions', 'wait', sid], { env: env() });
    expect([r.code, r.stdout]).toEqual([12, '']);
    expect(r.stderr).toBe(`error: session ${sid} is interrupted: its turn stopped before the end; \`svc sessions continue ${sid}\` resumes it\n`);
  });

  it('with input held behind the interrupt it still exits 12, and the line says the input waits (read from the pending list)', async () => {
    const sid = await interruptedSession();
    await send(t.emu, sid, '/echo held');
    const r = await svc(['sessions', 'wait', sid, '-o', 'json'], { env: env() });
    expect([r.code, r.stdout]).toEqual([12, '']);
    expect(JSON.parse(r.stderr).error).toEqual({
      type: 'session_interrupted',
      message: `session ${sid} is interrupted and input waits behind the interrupt: \`svc sessions continue ${sid}\` resumes it and runs the input`,
      session_id: sid,
      state: 'interrupted',
      held: true,
    });
  });

  it('exits 13 on a session waiting for a confirmation (it was 11)', async () => {
    const sid = await waiting();
    const r = await svc(['sessions', 'wait', sid], { env: env() });
    expect(r.code).toBe(13);
    expect(r.stderr).toContain(`svc sessions confirm ${sid} `);
  });

  it('on many: each line names its session, and the exit is the worst by 11 > 13 > 12', async () => {
    const [a, b, c] = [await failed(), await waiting(), await interruptedSession()];
    const all = await svc(['sessions', 'wait', a, b, c], { env: env() });
    expect(all.code).toBe(11);
    const lines = errorLines(all.stderr);
    expect(lines).toHaveLength(3);
    for (const sid of [a, b, c]) expect(lines.filter((l) => l.includes(sid))).toHaveLength(1);
    expect(lines.find((l) => l.includes(a))).toBe(
      `error: the session turn ended in session.error: model_error: error injected by /error model_error (session ${a})`,
    );
    expect((await svc(['sessions', 'wait', c, b], { env: env() })).code).toBe(13);
    expect((await svc(['sessions', 'wait', c, (await createSession(t.emu)).id], { env: env() })).code).toBe(12);
  });

  it('on many under -o json: one JSON error line per session with its session_id', async () => {
    const [a, b] = [await waiting(), await interruptedSession()];
    const r = await svc(['sessions', 'wait', a, b, '-o', 'json'], { env: env() });
    expect(r.code).toBe(13);
    const errors = r.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).error);
    expect(errors.map((e) => [e.session_id, e.type]).sort()).toEqual(
      [
        [a, 'session_waiting'],
        [b, 'session_interrupted'],
      ].sort(),
    );
  });

  it('on many, a session that cannot be read is named beside its line', async () => {
    const r = await svc(['sessions', 'wait', 'sesn_missing', (await createSession(t.emu)).id], { env: env() });
    expect(r.code).toBe(6);
    expect(errorLines(r.stderr)).toEqual([expect.stringMatching(/^error: .*type=resource_not_found_error.*; session sesn_missing$/)]);
  });
});

describe('svc sessions tail --until idle', () => {
  it('exits 12 on an interrupted session and 13 on a waiting one, after printing the backlog', async () => {
    const sid = await interruptedSession();
    const r = await svc(['sessions', 'tail', sid, '--until', 'idle'], { env: env() });
    expect(r.code).toBe(12);
    expect(ndjson(r.stdout).at(-1)).toMatchObject({ type: 'session.status', data: { status: 'idle', stop_reason: { type: 'interrupted' } } });
    expect(errorLines(r.stderr)).toEqual([expect.stringContaining(`svc sessions continue ${sid}`)]);
    const w = await waiting();
    const ask = await svc(['sessions', 'tail', w, '--until', 'idle'], { env: env() });
    expect(ask.code).toBe(13);
    expect(ask.stderr).toContain(`svc sessions confirm ${w} `);
  });
});

describe('svc sessions send', () => {
  it('warns on stderr when its input is held behind an interrupt, naming `svc sessions continue` (it said nothing)', async () => {
    const sid = await interruptedSession();
    const r = await svc(['sessions', 'send', sid, '--text', '/echo later'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^sevt_\w+\n$|^\{/);
    expect(r.stderr).toBe(`warning: session ${sid} is interrupted: this input waits behind the interrupt until \`svc sessions continue ${sid}\`\n`);
    const plain = await svc(['sessions', 'send', (await createSession(t.emu)).id, '--text', '/echo now'], { env: env() });
    expect([plain.code, plain.stderr]).toEqual([0, '']);
  });
});

describe('svc run --parallel', () => {
  it('reports each line with its status and exit code, and exits with the worst: waiting (13) over interrupted (12)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-exits-')), 'lines.ndjson');
    writeFileSync(
      file,
      ['"/echo fine"', '"/confirm bash {\\"cmd\\":\\"ls\\"}"', JSON.stringify({ message: slow, metadata: { batch: 'exits-12' } })].join('\n'),
    );
    const run = background(['run', '--agent', await agent(), '--parallel', '3', '--message-file', file, '-o', 'ndjson'], env());
    const slowOne = await waitUntil(async () => {
      const items = (await call(t.emu, 'GET', '/v1/sessions?page_size=1000')).body.items;
      return items.find((s: any) => s.metadata?.batch === 'exits-12' && s.status === 'running');
    }, 'the slow line running');
    await interrupt(slowOne.id);
    const r = await run.run;
    expect(r.code).toBe(13);
    const lines = ndjson(r.stdout).sort((x, y) => x.line - y.line);
    expect(lines.map((x) => [x.line, x.status, x.exit, x.ok])).toEqual([
      [1, 'idle', 0, true],
      [2, 'waiting', 13, false],
      [3, 'interrupted', 12, false],
    ]);
    expect(lines[2]).toMatchObject({ session_id: slowOne.id, error: { type: 'session_interrupted', session_id: slowOne.id } });
    expect(r.stderr).toContain('idle 1, failed 0, interrupted 1, waiting 1 of 3 lines');
  });
});
