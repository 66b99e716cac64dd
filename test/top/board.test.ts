import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTop } from '../../src/commands/top/parse';
import { runTop } from '../../src/commands/top/run';
import { Ctx } from '../../src/runtime/context';
import type { Io } from '../../src/runtime/io';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { exitCodeFor, InterruptedError } from '../../src/runtime/errors';
import { errorLine } from '../../src/output/error-line';
import { emuEnv, svc } from '../helpers/cli';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { agentSession, createSession, getSession, history, send, waitSession, waitUntil } from '../helpers/sse';
import { ttyCtx } from '../live/tty';
import { heldSleep } from '../helpers/held-sleep';

const t = useEmulator({ modelStepMs: 5 });

let stop: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
  await call(t.emu, 'POST', '/_emulator/faults', { body: {} });
});

/** `svc top` in-process on a fake terminal; `screen()` is the last frame drawn. */
function board(emu: { url: string; apiKey: string }, flags: Record<string, unknown> = {}, env: Record<string, string> = {}, io: Pick<Io, 'sleep'> = {}) {
  const { ctx: tty, stdin, stdout } = ttyCtx(emu);
  Object.assign(tty.io.env, env);
  const ctx = new Ctx({ ...tty.io, ...io }, tty.globals);
  const ended = runTop(ctx, parseTop([], { interval: '100ms', ...flags })).then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const screen = () => {
    const text = stdout.plain;
    return text.slice(text.lastIndexOf('svc top │'));
  };
  const shows = (what: string | RegExp, timeoutMs = 10_000) =>
    waitUntil(() => (typeof what === 'string' ? screen().includes(what) : what.test(screen())) && screen(), `the board to show ${what}`, timeoutMs).catch(
      (e) => {
        console.error('SCREEN:\n' + screen());
        throw e;
      },
    );
  const press = (k: string) => stdin.press(k);
  stop = async () => {
    press('q');
    return ended;
  };
  return { ctx, stdin, stdout, screen, shows, press, ended };
}

describe('svc top as a command', () => {
  it('off a terminal is exit 2 pointing to svc sessions list --watch, before any request', async () => {
    const before = await requestCount(t.emu);
    const r = await svc(['top'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('svc sessions list --watch');
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('-o and --jq are exit 2 (honest flags): the board has no output format', async () => {
    for (const args of [
      ['-o', 'json', 'top'],
      ['top', '--jq', '.'],
    ]) {
      const r = await svc(args, { env: emuEnv(t.emu), stdoutTTY: true });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('svc top draws a board: -o, -q and --jq do not apply');
    }
  });

  it('--debug with stderr on the terminal is exit 2 before any request: its lines would tear the board', async () => {
    const before = await requestCount(t.emu);
    const r = await svc(['top', '--debug'], { env: emuEnv(t.emu), stdoutTTY: true, stderrTTY: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('svc top --debug 2>debug.log');
    expect(await requestCount(t.emu)).toBe(before);
  });

  it('a bad --interval or an argument is exit 2', async () => {
    expect((await svc(['top', '--interval', 'soon'], { env: emuEnv(t.emu), stdoutTTY: true })).stderr).toContain('--interval takes a duration');
    const r = await svc(['top', 'sesn_1'], { env: emuEnv(t.emu), stdoutTTY: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("too many arguments for 'top'");
  });
});

describe('svc top on a terminal, against the emulator', () => {
  it('--environment naming no environment is the 404 naming it, exit 6, before the screen is taken (never "loading…" forever)', async () => {
    const { ctx, stdout } = ttyCtx(t.emu);
    const error = await runTop(ctx, parseTop([], { environment: 'env_missing' })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(exitCodeFor(error)).toBe(6);
    expect(errorLine(error)).toMatch(/env_missing.*status=404/);
    expect(stdout.text).toBe('');
  });

  it('shows the sessions with their agent names, and q quits with the terminal restored', async () => {
    const s = await createSession(t.emu, { title: 'basic-one' });
    const b = board(t.emu, { selector: undefined });
    await b.shows(new RegExp(`${s.id}\\s+basic-one`));
    b.press('q');
    expect(await b.ended).toEqual({ ok: true });
    stop = undefined;
    expect(b.stdin.rawModes.at(-1)).toBe(false);
    expect(b.stdout.text.endsWith('\u001b[?1049l\u001b[?25h')).toBe(true);
  });

  it('Ctrl-C leaves as an interruption (exit 130)', async () => {
    const b = board(t.emu);
    await b.shows('live');
    b.press('\u0003');
    const end = await b.ended;
    stop = undefined;
    expect(end.ok).toBe(false);
    expect((end as { error: unknown }).error).toBeInstanceOf(InterruptedError);
  });

  it('a change made elsewhere shows within an interval, and a session deleted elsewhere leaves the board', async () => {
    const s = await createSession(t.emu, { title: 'before-chg' });
    const b = board(t.emu);
    await b.shows('before-chg');
    await call(t.emu, 'PATCH', `/v1/sessions/${s.id}`, { body: { title: 'after-chg' } });
    await b.shows('after-chg');
    await call(t.emu, 'DELETE', `/v1/sessions/${s.id}`);
    // Deletions show at the watch's full resync (every 30 polls of 100 ms here).
    await waitUntil(() => !b.screen().includes(s.id), 'the row gone', 15_000);
  });

  it('a running session on screen shows its step from its stream, and i interrupts it through the bulk executor', async () => {
    const s = await createSession(t.emu, { title: 'runs-slow' });
    await send(t.emu, s.id, '/slow 300');
    await waitSession(t.emu, s.id, (x) => x.status === 'running', 'running');
    const b = board(t.emu, { selector: undefined });
    await b.shows(new RegExp(`${s.id}\\s+runs-slow.*running\\s+(writing|thinking)`));
    b.press('/');
    for (const ch of 'runs-slow') b.press(ch);
    b.press('\r');
    await b.shows(/1 of \d+ rows/);
    b.press('i');
    await waitSession(t.emu, s.id, (x) => x.interrupted === true, 'interrupted');
    await b.shows(/interrupted 1, unchanged 0, failed 0/);
    await b.shows(new RegExp(`${s.id}\\s+runs-slow.*\\binterrupted\\s`));
  });

  it('--readonly reaches the live view Enter opens: i, m + text + Enter, c and y act on nothing, and its footer offers none of them', async () => {
    const s = await createSession(t.emu, { title: 'ro-view' });
    await send(t.emu, s.id, '/slow 400');
    await waitSession(t.emu, s.id, (x) => x.status === 'running', 'running');
    const b = board(t.emu, { readonly: true });
    await b.shows(new RegExp(`${s.id}\\s+ro-view.*running`));
    b.press('/');
    for (const ch of 'ro-view') b.press(ch);
    b.press('\r');
    await b.shows(/│ (1 of \d+|1) rows/);
    b.press('\r');
    const view = () => b.stdout.plain.slice(b.stdout.plain.lastIndexOf(`${s.id} "ro-view"`));
    await waitUntil(() => /running │ epoch 0[^]*read-only d hide deltas · q quit/.test(view()), 'the live view, read-only');
    for (const k of ['i', 'm', 'h', 'i', '\r', 'c', 'y', 'n']) b.press(k);
    const at = b.stdout.plain.length;
    b.press('q');
    await waitUntil(() => b.stdout.plain.slice(at).includes('svc top │'), 'the board back', 10_000).catch((e) => {
      console.error(b.stdout.plain.slice(at - 3000));
      throw e;
    });
    const types = (await history(t.emu, `/v1/sessions/${s.id}`)).map((e) => e.type);
    expect(types).not.toContain('user.interrupt');
    expect(types.filter((x) => x === 'user.message')).toHaveLength(1);
    expect(await getSession(t.emu, s.id)).toMatchObject({ control_epoch: '0', interrupted: false });
    expect(view()).not.toMatch(/i interrupt|m message|next_turn›/);
  });

  it('a write that fails leaves one line in the footer and the row as it was', async () => {
    const s = await createSession(t.emu, { title: 'fail-write' });
    await send(t.emu, s.id, '/slow 300');
    await waitSession(t.emu, s.id, (x) => x.status === 'running', 'running');
    const b = board(t.emu);
    await b.shows('fail-write');
    b.press('/');
    for (const ch of 'fail-wr') b.press(ch);
    b.press('\r');
    await b.shows(/1 of \d+ rows/);
    await b.shows(/i interrupt/);
    await call(t.emu, 'POST', '/_emulator/faults', { body: { reject_write_every: 1 } });
    b.press('i');
    await b.shows(/interrupted 0, unchanged 0, failed 1 · interrupt failed for sesn_\w+: internal error/);
    expect((await getSession(t.emu, s.id)).interrupted).toBe(false);
    expect(b.screen()).toMatch(new RegExp(`${s.id}\\s+fail-write.*running`));
  });

  it("y allows the selected session's awaited confirmation", async () => {
    const s = await createSession(t.emu, { title: 'confirms' });
    await send(t.emu, s.id, '/confirm bash {"command":"ls"}');
    await waitSession(t.emu, s.id, (x) => x.requires_action === true, 'waiting');
    const b = board(t.emu);
    await b.shows('confirms');
    b.press('/');
    for (const ch of 'confirms') b.press(ch);
    b.press('\r');
    await b.shows(/y allow · n deny/);
    b.press('y');
    await b.shows('allowed bash for');
    await waitSession(t.emu, s.id, (x) => x.status === 'idle' && x.stop_reason?.type === 'end_turn', 'the turn finished');
  });

  it('a quiet fleet costs one list request per interval', async () => {
    await agentSession(t.emu, { name: 'quiet-agent' }, { title: 'quiet' });
    const naps = heldSleep();
    const b = board(t.emu, { interval: '200ms', status: 'idle' }, {}, { sleep: naps.sleep });
    /** Ends the wait between two polls, and waits until the next poll is done and waits again. */
    const poll = async () => {
      const asked = naps.asked.length;
      naps.wakeAll();
      await waitUntil(() => naps.asked.length > asked, 'the next wait between polls');
    };
    // The first reads are done (agent names, pending inputs of the rows on screen): the name is on the board.
    await b.shows('quiet-agent');
    await poll();
    const before = await requestCount(t.emu);
    for (let i = 0; i < 10; i++) await poll();
    expect((await requestCount(t.emu)) - before).toBe(10);
    // Each wait is what is left of the interval after its poll.
    for (const ms of naps.asked) expect(ms).toBeLessThanOrEqual(200);
  });
});

describe('svc top on a bad day', () => {
  it('an unreachable service: the board stays, says so in its header and retries until the service answers', async () => {
    const port = await freePort();
    const where = { url: `http://127.0.0.1:${port}`, apiKey: 'sk_board_outage' };
    const b = board(where, {}, { SVC_MAX_RETRIES: '0' });
    await b.shows(/service unreachable; retry 1 in \d+s \(cannot reach/);
    let emu: Emulator | undefined;
    try {
      emu = await startEmulator({ port, apiKey: where.apiKey });
      await createSession(emu, { title: 'after-down' });
      await b.shows('after-down', 40_000);
      expect(b.screen()).toMatch(/live, polled/);
    } finally {
      await stop?.();
      stop = undefined;
      await emu?.close();
    }
  }, 60_000);

  it('429s are honoured: the board loads through them without an error', async () => {
    await createSession(t.emu, { title: 'thru-429' });
    await call(t.emu, 'POST', '/_emulator/faults', { body: { rate_limit_every: 2, retry_after: 1 } });
    const b = board(t.emu);
    await b.shows('thru-429', 15_000);
    const stats = (await call(t.emu, 'GET', '/_emulator/stats')).body;
    expect(JSON.stringify(stats)).toMatch(/rate_limit/);
    expect(b.screen()).not.toContain('unreachable');
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
