/** `svc run` and `svc sessions tail` on a terminal, through main() with TTY streams: what the operator sees around the view. */
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { loadInk } from '../../src/live/load-ink';
import type { Io } from '../../src/runtime/io';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, getSession, history, send, waitSession, waitUntil } from '../helpers/sse';
import { FakeTtyIn, FakeTtyOut } from './tty';

const t = useEmulator({ modelStepMs: 5 });
// Loaded as the view loads them: with CI=true (as CI runs) a plain import would leave Ink drawing only its last frame.
beforeAll(async () => {
  await Promise.all([loadInk(), import('react')]);
});

/** Runs svc in-process on a fake terminal; `keys` types into it once the view shows its footer. */
async function onTty(args: string[], keys?: string) {
  const stdin = new FakeTtyIn();
  const stdout = new FakeTtyOut();
  const stderr = new FakeTtyOut();
  const io: Io = { stdin, stdout, stderr, env: { SVC_BASE_URL: t.emu.url, SVC_API_KEY: t.emu.apiKey, SVC_CONFIG_DIR: tempConfigDir() }, cwd: process.cwd() };
  const running = main(args, io);
  if (keys !== undefined) {
    await waitUntil(() => stdout.plain.includes('q quit'), 'the view');
    stdin.press(keys);
  }
  const code = await running;
  return { code, stdin, stdout, stderr };
}

async function agentId(): Promise<string> {
  const a = await call(t.emu, 'POST', '/v1/agents', { body: { name: 'tty', model: 'scripted-1', roster: [{ name: 'worker' }] } });
  return a.body.id;
}

describe('svc run on a terminal', () => {
  it('the view draws the whole turn (child threads tagged), closes at idle, then the final message is printed', async () => {
    const r = await onTty(['run', '--agent', await agentId(), '--message', '/delegate 2']);
    expect(r.stderr.plain).toMatch(/^session sesn_\w+\n$/);
    expect(r.code).toBe(0);
    const out = r.stdout.plain;
    // The last events are drawn before the view leaves: the turn's end is on the screen.
    expect(out).toContain('you› /delegate 2');
    expect(out).toMatch(/\[worker-1\] Thread 1 finished its part\./);
    expect(out).toContain('idle: end_turn');
    expect(out).toMatch(/ │ idle │ epoch 0\nclosed │/);
    // After the view, the coordinator's final message on its own line, as `run` prints it without a terminal.
    expect(out.endsWith('All 2 threads finished.\n')).toBe(true);
    expect(out.indexOf('All 2 threads finished.\n')).toBeLessThan(out.lastIndexOf('closed │'));
    const sid = r.stderr.plain.trim().split(' ')[1];
    expect((await getSession(t.emu, sid)).status).toBe('idle');
  });

  it('--timeout ends the view with exit 124, the session left running and the terminal restored', async () => {
    const r = await onTty(['run', '--agent', await agentId(), '--message', '/slow 400', '--timeout', '1']);
    expect(r.code).toBe(124);
    expect(r.stderr.plain).toMatch(/did not finish the turn after 1s \(--timeout\)/);
    expect(r.stdin.rawModes.at(-1)).toBe(false);
    const sid = /session (sesn_\w+)/.exec(r.stderr.plain)![1];
    expect((await getSession(t.emu, sid)).status).toBe('running');
    await call(t.emu, 'POST', `/v1/sessions/${sid}/interrupt`, { body: {} });
  });

  it('R-ERR-24 a turn ending in session.error exits 11 with the same error line and recovery hint as without a terminal', async () => {
    const r = await onTty(['run', '--agent', await agentId(), '--message', '/error rate_limited']);
    expect(r.code).toBe(11);
    const [created, ...lines] = r.stderr.plain.trim().split('\n');
    const sid = created.split(' ')[1];
    expect(lines).toEqual([
      `error: the session turn ended in session.error: rate_limited: error injected by /error rate_limited (session ${sid})`,
      'hint: Wait and retry.',
    ]);
    // The view closed on the failed turn and says so.
    expect(r.stdout.plain).toContain('error rate_limited: error injected by /error rate_limited');
    expect(r.stdout.plain).toContain('the turn ended in session.error');
    const piped = await svc(['run', '--agent', await agentId(), '--message', '/error rate_limited'], { env: emuEnv(t.emu), stderrTTY: true });
    expect(piped.code).toBe(11);
    const [pipedCreated, ...pipedLines] = piped.stderr.trim().split('\n');
    expect(pipedLines.map((l) => l.replace(pipedCreated.split(' ')[1], sid))).toEqual(lines);
  });

  it('-o ndjson prints every event as a line even on a terminal, no view', async () => {
    const r = await onTty(['run', '--agent', await agentId(), '--message', '/echo hi', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    const lines = r.stdout.plain
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((e) => e.type)).toContain('agent.message');
    expect(r.stdout.plain).not.toContain('q quit');
  });
});

describe('svc sessions tail on a terminal', () => {
  it('--until idle draws the last events before leaving, the header says the stream is closed', async () => {
    const s = await createSession(t.emu);
    await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, {
      body: { events: [{ type: 'user.message', data: { content: [{ type: 'text', text: '/echo bye' }] } }] },
    });
    await waitSession(t.emu, s.id, (x) => x.status === 'idle', 'the turn ended');
    const r = await onTty(['sessions', 'tail', s.id, '--until', 'idle']);
    expect(r.code).toBe(0);
    expect(r.stdout.plain).toContain('you› /echo bye\nbye\nidle: end_turn\n');
    expect(r.stdout.plain).toMatch(/closed │ pending 0 │ events \d+/);
  });

  it('R-ERR-23 --until idle after session.error names the error type (exit 11), as the NDJSON tail does', async () => {
    const s = await createSession(t.emu);
    await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, {
      body: { events: [{ type: 'user.message', data: { content: [{ type: 'text', text: '/error odd_failure' }] } }] },
    });
    await waitSession(t.emu, s.id, (x) => x.status === 'idle', 'the turn ended');
    const r = await onTty(['sessions', 'tail', s.id, '--until', 'idle']);
    expect(r.code).toBe(11);
    expect(r.stderr.plain).toBe(
      `error: the session turn ended in session.error: odd_failure: unknown error type; error injected by /error odd_failure (session ${s.id})\n`,
    );
  });

  it('Ctrl-C typed in the view exits 130, as the contract says; q exits 0 (issue 13)', async () => {
    const s = await createSession(t.emu);
    const interrupted = await onTty(['sessions', 'tail', s.id], '\u0003');
    expect(interrupted.code).toBe(130);
    expect(interrupted.stdin.rawModes.at(-1)).toBe(false);
    expect(interrupted.stdout.plain).toContain('left the view; the session keeps running');
    const quit = await onTty(['sessions', 'tail', s.id], 'q');
    expect(quit.code).toBe(0);
  });
});

describe('svc run on a terminal, interrupted', () => {
  it('Ctrl-C typed in the view of run exits 130 and leaves the session running (issue 13)', async () => {
    const r = await onTty(['run', '--agent', await agentId(), '--message', '/slow 400'], '\u0003');
    expect(r.code).toBe(130);
    const sid = /session (sesn_\w+)/.exec(r.stderr.plain)![1];
    expect((await getSession(t.emu, sid)).status).toBe('running');
    await call(t.emu, 'POST', `/v1/sessions/${sid}/interrupt`, { body: {} });
  });
});

describe('svc demo on a terminal', () => {
  it("q says the demo's emulator stops with it (not that the session keeps running), then the piped demo's hint (issue 17)", async () => {
    const r = await onTty(['demo'], 'q');
    expect(r.code, r.stderr.plain).toBe(0);
    const out = r.stdout.plain;
    expect(out).toContain('left the demo: its emulator stops now, and the session with it');
    expect(out).not.toContain('the session keeps running');
    const hint = out.slice(out.lastIndexOf('Try it yourself, in this shell:'));
    expect(hint).toMatch(/^ {2}svc emulator --port 0 --exports-file emulator.env --log emulator.log &$/m);
    expect(out.trimEnd().split('\n').at(-1)).toBe('  kill %1');
  });
});

describe('svc threads tail on a terminal', () => {
  it('--until idle on a child thread closes the view once the session is idle (issue 17)', async () => {
    const s = await createSession(t.emu);
    await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, {
      body: { events: [{ type: 'user.message', data: { content: [{ type: 'text', text: '/delegate 1' }] } }] },
    });
    const tid = await waitUntil(
      async () => (await history(t.emu, `/v1/sessions/${s.id}`)).find((e) => e.type === 'session.thread_created')?.data.thread_id,
      'the child thread',
    );
    const r = await onTty(['threads', 'tail', s.id, tid, '--until', 'idle']);
    expect(r.code, r.stderr.plain).toBe(0);
    expect((await getSession(t.emu, s.id)).status).toBe('idle');
    expect(r.stdout.plain).toContain('[worker-1] Thread 1 finished its part.');
    expect(r.stdout.plain).toContain('the turn ended; the session is idle');
  });
});

describe('svc run on a terminal, left with q', () => {
  it('issue 26: q says the turn goes on and how to follow it; the session keeps running', async () => {
    const r = await onTty(['run', '--agent', await agentId(), '--message', '/slow 400'], 'q');
    expect(r.code).toBe(0);
    const sid = /session (sesn_\w+)/.exec(r.stderr.plain)![1];
    expect(r.stdout.plain).toContain(`left the view; the turn goes on: follow it with \`svc sessions tail ${sid}\``);
    expect(r.stdout.plain).not.toContain('the session keeps running');
    expect((await getSession(t.emu, sid)).status).toBe('running');
    await call(t.emu, 'POST', `/v1/sessions/${sid}/interrupt`, { body: {} });
  });
});

describe('svc sessions tail on a terminal: the streaming preview', () => {
  it('issue 26: is shown by default (no --deltas), and d hides it', async () => {
    const s = await createSession(t.emu);
    const stdin = new FakeTtyIn();
    const stdout = new FakeTtyOut();
    const stderr = new FakeTtyOut();
    const io: Io = { stdin, stdout, stderr, env: { SVC_BASE_URL: t.emu.url, SVC_API_KEY: t.emu.apiKey, SVC_CONFIG_DIR: tempConfigDir() }, cwd: process.cwd() };
    const running = main(['sessions', 'tail', s.id], io);
    await waitUntil(() => /^live │/m.test(stdout.plain), 'the stream live');
    expect(stdout.plain).toContain('d hide deltas');
    await send(t.emu, s.id, '/slow 100');
    await waitUntil(() => /word2 word3/.test(stdout.plain), 'the preview');
    stdin.press('d');
    await waitUntil(() => stdout.plain.includes('d show deltas'), 'the preview hidden');
    stdin.press('q');
    expect(await running).toBe(0);
    await call(t.emu, 'POST', `/v1/sessions/${s.id}/interrupt`, { body: {} });
  });
});
