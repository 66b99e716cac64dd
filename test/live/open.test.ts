import { beforeAll, describe, expect, it } from 'vitest';
import { openLiveView } from '../../src/live/open';
import { InterruptedError, NoCredentialError } from '../../src/runtime/errors';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, getSession, history, send, waitSession, waitUntil } from '../helpers/sse';
import { scriptedEvent, scriptedServer, sseFrame } from '../api/stream/helpers';
import { ttyCtx } from './tty';

const t = useEmulator({ modelStepMs: 5 });
/** A view open on a session whose turn (a slow reply) is running, the stream live. */
async function runningTurn() {
  const s = await createSession(t.emu);
  const { ctx, stdin, stdout } = ttyCtx(t.emu);
  const view = openLiveView({ ctx, client: await ctx.api(), sessionId: s.id, deltas: false });
  await waitUntil(() => /^live │/m.test(stdout.plain), 'the stream live');
  await send(t.emu, s.id, '/slow 200');
  await waitUntil(() => /running │ epoch 0/.test(frame(stdout.plain, s.id)), 'the running turn');
  return { s, stdin, stdout, view };
}
/** The last frame drawn: from the last header line on. */
const frame = (plain: string, sid: string) => plain.slice(plain.lastIndexOf(sid));
// Loading Ink (and its layout engine) the first time is slow under the test transform: do it before the clocks start.
beforeAll(async () => {
  await (await import('../../src/live/load-ink')).loadInk();
});

describe('openLiveView against the emulator', () => {
  it('R-SESS-27 R-SESS-28 R-SESS-37 i interrupts with the known epoch, c continues, q leaves the session running and restores raw mode', async () => {
    const s = await createSession(t.emu);
    const { ctx, stdin, stdout } = ttyCtx(t.emu);
    const client = await ctx.api();
    const view = openLiveView({ ctx, client, sessionId: s.id, deltas: true });
    // Deltas are never in history: the reply is sent once the stream is live, or its first words are not seen.
    await waitUntil(() => /^live │/m.test(stdout.plain), 'the stream live');
    await send(t.emu, s.id, '/slow 200');
    await waitUntil(() => /word2 word3/.test(stdout.plain), 'the delta preview');
    expect(stdout.plain).toContain(s.id);
    stdin.press('i');
    const interrupted = await waitSession(t.emu, s.id, (x) => x.interrupted, 'the session interrupted');
    await waitUntil(() => stdout.plain.includes(`interrupted (epoch ${interrupted.control_epoch})`), 'the interrupt outcome read back');
    // The interrupt carried the epoch the view knew (the session's epoch before it).
    const ack = (await history(t.emu, `/v1/sessions/${s.id}`)).find((e) => e.type === 'user.interrupt');
    expect(ack.data).toEqual({ expected_control_epoch: '0' });
    // Stopped mid-reply: the complete message never came.
    expect((await history(t.emu, `/v1/sessions/${s.id}`)).some((e) => e.type === 'agent.message')).toBe(false);
    stdin.press('c');
    await waitUntil(() => /continued \(epoch \d+\)/.test(stdout.plain), 'the continue outcome');
    const resumed = await getSession(t.emu, s.id);
    expect(resumed).toMatchObject({ interrupted: false, continue_pending: false });
    stdin.press('q');
    await expect(view).resolves.toEqual({ reason: 'quit' });
    const last = stdout.plain.slice(stdout.plain.lastIndexOf(s.id));
    expect(last).toContain('left the view; the session keeps running');
    expect(last).not.toMatch(/m message|q quit/);
    expect(stdin.rawModes.at(0)).toBe(true);
    expect(stdin.rawModes.at(-1)).toBe(false);
    expect(stdout.text.endsWith('\u001b[?25h')).toBe(true);
    expect((await getSession(t.emu, s.id)).archived_at).toBeNull();
  });

  it('issue 26: i and c each leave one line saying what happened to the session, with the epochs the service gave', async () => {
    const { s, stdin, stdout, view } = await runningTurn();
    stdin.press('i');
    await waitUntil(() => stdout.plain.includes('● interrupted (epoch 1): the session has stopped; c continues it'), 'the interrupt line');
    await waitUntil(() => /│ interrupted │ epoch 1\n/.test(frame(stdout.plain, s.id)), 'the header at epoch 1');
    stdin.press('c');
    const server = await waitSession(t.emu, s.id, (x) => !x.interrupted && !x.continue_pending, 'the session resumed');
    expect(server.control_epoch).toBe('3');
    // Nothing was queued: the continue starts no turn, and the line says so rather than "resumed".
    await waitUntil(
      () => stdout.plain.includes('● continued (epoch 3): no longer interrupted; nothing was queued, so the session stays idle (m sends a message)'),
      'the continue line',
    );
    await waitUntil(() => /idle │ epoch 3\n/.test(frame(stdout.plain, s.id)), 'the header at epoch 3');
    const out = stdout.plain;
    // One line per action: neither the acknowledgement nor the interrupted status adds its own.
    expect(out).not.toMatch(/^interrupt: epoch|^interrupted \(epoch/m);
    expect(out.split('● interrupted (epoch').length).toBe(2);
    expect(out.split('● continued (epoch').length).toBe(2);
    expect(out).not.toContain('resumed');
    // The footer never named an epoch of its own while the action ran.
    expect(out).not.toMatch(/interrupting \(epoch/);
    expect(frame(out, s.id)).not.toContain('c continue');
    stdin.press('q');
    await view;
  });

  it('keys typed before the view opens are dropped, never acted on: no interrupt, no message; the footer says so', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/slow 200');
    await waitSession(t.emu, s.id, (x) => x.status === 'running', 'the running turn');
    const { ctx, stdin, stdout } = ttyCtx(t.emu);
    // Three lines pasted into the shell without bracketed paste, waiting in the terminal when the view opens.
    stdin.typeAhead('i\n');
    stdin.typeAhead('mhello\n');
    stdin.typeAhead('\n');
    const view = openLiveView({ ctx, client: await ctx.api(), sessionId: s.id, deltas: false });
    await waitUntil(() => /^live │/m.test(stdout.plain), 'the stream live');
    await waitUntil(() => /running │ epoch 0/.test(frame(stdout.plain, s.id)), 'the running turn');
    expect(frame(stdout.plain, s.id)).toContain('dropped 10 keys typed before the view opened');
    expect(frame(stdout.plain, s.id)).not.toContain('next_turn›');
    // Keys typed once the view is drawn are read as ever.
    stdin.press('q');
    await expect(view).resolves.toEqual({ reason: 'quit' });
    const types = (await history(t.emu, `/v1/sessions/${s.id}`)).map((e) => e.type);
    expect(types).not.toContain('user.interrupt');
    expect(types.filter((x) => x === 'user.message')).toHaveLength(1);
    expect((await getSession(t.emu, s.id)).control_epoch).toBe('0');
  });

  it('issue 17: an interrupt and a continue sent from another shell show in the header and the keys', async () => {
    const { s, stdin, stdout, view } = await runningTurn();
    await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, { body: { events: [{ type: 'user.interrupt', data: {} }] } });
    await waitUntil(() => /│ interrupted │ epoch 1\n[^]*c continue/.test(frame(stdout.plain, s.id)), 'the interrupted session offering c');
    const continued = await call(t.emu, 'POST', `/v1/sessions/${s.id}/continue`);
    expect(continued.body.control_epoch).toBe('2');
    const server = await waitSession(t.emu, s.id, (x) => !x.continue_pending, 'the start completed');
    // No event says so (nothing was queued): the view reads the session while it is interrupted.
    await waitUntil(() => frame(stdout.plain, s.id).includes(`idle │ epoch ${server.control_epoch}\n`), 'the header after the continue', 10_000);
    expect(frame(stdout.plain, s.id)).not.toContain('c continue');
    // The interrupt's line has its own epoch; the Continue, which wrote no event, is a line of its own from the read.
    await waitUntil(() => stdout.plain.includes(`continued (epoch ${server.control_epoch})`), 'the continue line');
    expect(stdout.plain).toContain('interrupted (epoch 1)');
    expect(stdout.plain.split('continued (').length).toBe(2);
    stdin.press('q');
    await view;
  });

  it('m composes a message that the server receives; y answers the awaited confirmation; Ctrl-C leaves as an interruption', async () => {
    const s = await createSession(t.emu);
    const { ctx, stdin, stdout } = ttyCtx(t.emu);
    const view = openLiveView({ ctx, client: await ctx.api(), sessionId: s.id, deltas: false });
    await waitUntil(() => stdout.plain.includes('m message'), 'the footer');
    for (const k of ['m', ...'/confirm bash {"cmd":"ls"}', '\r']) stdin.press(k);
    await waitUntil(() => stdout.plain.includes('awaiting confirmation: bash {"cmd":"ls"}'), 'the confirmation prompt');
    stdin.press('y');
    await waitSession(t.emu, s.id, (x) => x.status === 'idle' && x.stop_reason?.type === 'end_turn', 'the turn ended');
    const h = await history(t.emu, `/v1/sessions/${s.id}`);
    const use = h.find((e) => e.type === 'agent.tool_use');
    expect(h.find((e) => e.type === 'user.tool_confirmation')?.data).toEqual({ event_id: use.id, result: 'allow' });
    await waitUntil(() => stdout.plain.includes('Done with bash.'), 'the final message');
    stdin.press('\u0003');
    await expect(view).rejects.toBeInstanceOf(InterruptedError);
    expect(stdin.rawModes.at(-1)).toBe(false);
  });

  it('R-EVT-20 untilIdle returns when the turn ends, and as error after session.error', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/echo hi');
    const { ctx } = ttyCtx(t.emu);
    await expect(openLiveView({ ctx, client: await ctx.api(), sessionId: s.id, deltas: true, untilIdle: true })).resolves.toEqual({
      reason: 'idle',
      message: 'hi',
    });
    const e = await createSession(t.emu);
    await send(t.emu, e.id, '/error model_overloaded');
    const second = ttyCtx(t.emu);
    await expect(openLiveView({ ctx: second.ctx, client: await second.ctx.api(), sessionId: e.id, deltas: true, untilIdle: true })).resolves.toEqual({
      reason: 'error',
      failure: expect.objectContaining({
        message: `the session turn ended in session.error: model_overloaded: unknown error type; error injected by /error model_overloaded (session ${e.id})`,
      }),
    });
    // The last frame says how the view ended, with no keys left on the screen.
    const last = second.stdout.plain.slice(second.stdout.plain.lastIndexOf(e.id));
    expect(last).toContain('the turn ended in session.error');
    expect(last).not.toContain('q quit');
  });

  it('a signal ends the view with InterruptedError and the terminal restored', async () => {
    const s = await createSession(t.emu);
    const abort = new AbortController();
    const { ctx, stdin, stdout } = ttyCtx(t.emu, abort.signal);
    const view = openLiveView({ ctx, client: await ctx.api(), sessionId: s.id, deltas: true });
    await waitUntil(() => stdout.plain.includes('q quit'), 'the view');
    abort.abort();
    await expect(view).rejects.toBeInstanceOf(InterruptedError);
    expect(stdin.rawModes.at(-1)).toBe(false);
  });

  it('an unknown session ends the view with the API error (exit 6 upstream), terminal restored', async () => {
    const { ctx, stdin } = ttyCtx(t.emu);
    await expect(openLiveView({ ctx, client: await ctx.api(), sessionId: 'sess_missing', deltas: true })).rejects.toMatchObject({ status: 404 });
    expect(stdin.rawModes.at(-1)).toBe(false);
    expect((await call(t.emu, 'GET', '/v1/sessions/sess_missing')).status).toBe(404);
  });

  it('without a client the first frame is drawn before the HTTP client loads; without an API key nothing is drawn', async () => {
    const s = await createSession(t.emu);
    const { ctx, stdin, stdout } = ttyCtx(t.emu);
    const api = ctx.api.bind(ctx);
    let drawnWhenLoaded: string | undefined;
    ctx.api = () => {
      drawnWhenLoaded ??= stdout.plain;
      return api();
    };
    const view = openLiveView({ ctx, sessionId: s.id, deltas: true });
    await send(t.emu, s.id, '/echo streamed after the client');
    await waitUntil(() => stdout.plain.includes('streamed after the client'), 'the reply');
    expect(drawnWhenLoaded).toContain(s.id);
    expect(drawnWhenLoaded).toContain('q quit');
    stdin.press('q');
    await expect(view).resolves.toEqual({ reason: 'quit' });

    const keyless = ttyCtx(t.emu);
    delete keyless.ctx.io.env.SVC_API_KEY;
    await expect(openLiveView({ ctx: keyless.ctx, sessionId: s.id, deltas: true })).rejects.toBeInstanceOf(NoCredentialError);
    expect(keyless.stdout.text).toBe('');
    expect(keyless.stdin.rawModes).toEqual([]);
  });

  it('issue 26: an outage does not end the view: it reconnects with back-off capped at 30 s, the attempt in its header, until the stream is back', async () => {
    const event = scriptedEvent(1, 'agent.message', { content: [{ type: 'text', text: 'back after the outage' }] });
    const server = await scriptedServer({
      history: () => [],
      streamCursor: '0',
      // Fourteen failed attempts (the NDJSON tail gives up after --max-retries 3), then the stream answers.
      stream: (_cursor, n) =>
        n < 14 ? 'unavailable' : { frames: sseFrame('0', 'control', '{"cursor":"0"}') + sseFrame('1', event.type, JSON.stringify(event)) },
    });
    try {
      const waits: number[] = [];
      const { ctx, stdin, stdout } = ttyCtx(server);
      // Each wait ends once the header has drawn its attempt (frames are throttled; the waits themselves are not slept).
      const sleep = async (ms: number) => {
        waits.push(ms);
        await waitUntil(() => stdout.plain.includes(`reconnecting (attempt ${waits.length}, next try in`), `attempt ${waits.length} drawn`);
      };
      Object.assign(ctx, { sleep });
      const view = openLiveView({ ctx, client: await ctx.api(), sessionId: 'sesn_scripted', deltas: true });
      let ended = false;
      void view.then(
        () => (ended = true),
        () => (ended = true),
      );
      await waitUntil(() => stdout.plain.includes('back after the outage'), 'the event after the outage');
      expect(ended).toBe(false);
      expect(stdout.plain).toMatch(/reconnecting \(attempt 14, next try in \d+s\)/);
      expect(waits).toHaveLength(14);
      expect(Math.max(...waits)).toBeLessThanOrEqual(30_000);
      expect(waits.at(-1)).toBeGreaterThanOrEqual(15_000);
      await waitUntil(() => /^live │/m.test(stdout.plain.slice(stdout.plain.lastIndexOf('sesn_scripted'))), 'live again');
      stdin.press('q');
      await expect(view).resolves.toEqual({ reason: 'quit' });
    } finally {
      await server.close();
    }
  });
});
