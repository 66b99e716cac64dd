import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sharedBundle } from '../helpers/bundled';
import { describeWith } from '../helpers/requires';
import { tmuxTerminal } from '../helpers/tmux';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, getSession, history, send, waitSession, waitUntil } from '../helpers/sse';

const repo = new URL('../..', import.meta.url).pathname;
/** The test's own folder: the terminal's socket and configuration, and the files its commands write. */
const work = join(repo, 'node_modules', '.cache', `live-e2e-${process.pid}`);
/** The run's shared build of svc (test/helpers/bundled.ts). */
let bin = '';
const t = useEmulator({ modelStepMs: 5 });

const { tmux, pane, keys, paneShows, start, stop } = tmuxTerminal(work, 'live');

describeWith('the live view in a real terminal (tmux)', ['tmux'], () => {
  beforeAll(async () => {
    mkdirSync(work, { recursive: true });
    bin = await sharedBundle();
    // CI=true as a pipeline sets it: Ink would then draw only its last frame, and the view must still be live.
    await start({ emu: t.emu, width: 120, height: 40, ci: true });
  }, 90_000);

  afterAll(async () => {
    await stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('sessions tail on a TTY: m sends /slow, i interrupts, c continues, q gives the prompt back with the terminal as it was', async () => {
    const s = await createSession(t.emu);
    const before = join(work, 'stty-before');
    const after = join(work, 'stty-after');
    await keys('-l', `stty -a > ${before}; node ${bin} sessions tail ${s.id} --deltas; code=$?; stty -a > ${after}; echo "END-OF-VIEW exit=$code"`);
    await keys('Enter');
    // Idle with nothing queued: there is nothing to interrupt yet.
    await paneShows(/^m message · d hide deltas · q quit$/m);
    // Deltas are never in history: a message sent before the stream is live loses its first words (the /word2 word3/ flake).
    await paneShows(/^live │/m);

    await keys('m');
    await paneShows('next_turn›');
    await keys('-l', '/slow 200');
    await keys('Enter');
    await paneShows(/word2 word3/);
    await paneShows(/i interrupt · m message · d hide deltas · q quit/);
    expect((await getSession(t.emu, s.id)).status).toBe('running');

    await keys('i');
    const interrupted = await paneShows(/interrupted \(epoch (\d+)\)/);
    const server1 = await getSession(t.emu, s.id);
    expect(server1).toMatchObject({ status: 'idle', interrupted: true, stopping: false });
    expect(interrupted).toContain(`interrupted (epoch ${server1.control_epoch})`);
    // The notice comes with the control answer; the header follows a moment later (the stream or a session read).
    await paneShows(/│ interrupted │ epoch \d+/);

    await keys('c');
    const resumed = await paneShows(/continued \(epoch (\d+)\)/);
    const server2 = await getSession(t.emu, s.id);
    expect(server2).toMatchObject({ interrupted: false, continue_pending: false });
    expect(resumed).toContain(`continued (epoch ${server2.control_epoch})`);

    await keys('q');
    const end = await paneShows(/END-OF-VIEW exit=0\nPROMPT\$/);
    // The last frame left on the screen shows how the view ended, not keys that no longer work.
    expect(end).toMatch(/left the view; the session keeps running\nEND-OF-VIEW/);
    expect(readFileSync(after, 'utf8')).toBe(readFileSync(before, 'utf8'));
    // q leaves the session running (not archived).
    expect((await getSession(t.emu, s.id)).archived_at).toBeNull();
  }, 120_000);

  /** Starts the view on the session in the pane (the shell's prompt back, with the exit code, when it ends). */
  async function tail(sid: string): Promise<void> {
    await keys('-l', `clear; node ${bin} sessions tail ${sid}; echo "END-OF-VIEW exit=$?"`);
    await keys('Enter');
    await paneShows(/^live │/m);
  }
  /** The view's last footer line (the keys). */
  const footer = (text: string) =>
    text
      .split('\n')
      .filter((l) => / q quit$/.test(l))
      .at(-1) ?? '';

  it('issue 17: an interrupt and a continue from another shell show in the header and the keys', async () => {
    const s = await createSession(t.emu);
    await tail(s.id);
    await send(t.emu, s.id, '/slow 200');
    await paneShows(/running │ epoch 0/);
    await call(t.emu, 'POST', `/v1/sessions/${s.id}/events`, { body: { events: [{ type: 'user.interrupt', data: {} }] } });
    const interrupted = await paneShows(/│ interrupted │ epoch 1[^]*c continue/);
    expect(footer(interrupted)).toContain('c continue');
    expect((await call(t.emu, 'POST', `/v1/sessions/${s.id}/continue`)).body.control_epoch).toBe('2');
    const server = await waitSession(t.emu, s.id, (x) => !x.continue_pending, 'the start completed');
    const resumed = await paneShows(new RegExp(`idle │ epoch ${server.control_epoch}\\n`));
    expect(footer(resumed)).not.toContain('c continue');
    await keys('q');
    await paneShows(/END-OF-VIEW exit=0/);
  }, 120_000);

  it('keys typed before the view opens are dropped: three lines pasted without bracketed paste neither interrupt nor send', async () => {
    const s = await createSession(t.emu);
    await send(t.emu, s.id, '/slow 400');
    await waitSession(t.emu, s.id, (x) => x.status === 'running', 'the running turn');
    await keys('-l', `clear; node ${bin} sessions tail ${s.id}; echo "END-OF-VIEW exit=$?"`);
    await keys('Enter');
    // Sent at once, while node is still starting: the terminal holds them for whoever reads next.
    await keys('-l', 'i\nmhello\n\n');
    await paneShows(/dropped \d+ keys typed before the view opened/);
    await paneShows(/running │ epoch 0/);
    const types = (await history(t.emu, `/v1/sessions/${s.id}`)).map((e) => e.type);
    expect(types).not.toContain('user.interrupt');
    expect(types.filter((x) => x === 'user.message')).toHaveLength(1);
    await keys('q');
    await paneShows(/END-OF-VIEW exit=0/);
    expect((await getSession(t.emu, s.id)).control_epoch).toBe('0');
  }, 120_000);

  it('issue 26: in the composer a pasted text keeps its line break until Enter; text and Enter in one write send that text', async () => {
    const s = await createSession(t.emu);
    await tail(s.id);
    await keys('m');
    await paneShows('next_turn›');
    // tmux pastes with the terminal's bracketed-paste markers when the application asked for them (-p).
    await tmux('set-buffer', '-b', 'svc-e2e', '/echo pasted\nsecond line');
    await tmux('paste-buffer', '-p', '-d', '-b', 'svc-e2e', '-t', 'live');
    await paneShows(/second line/);
    expect((await history(t.emu, `/v1/sessions/${s.id}`)).filter((e) => e.type === 'user.message')).toHaveLength(0);
    await keys('Enter');
    await waitSession(t.emu, s.id, (x) => x.status === 'idle' && x.stop_reason?.type === 'end_turn', 'the first reply');
    const sent = async () => (await history(t.emu, `/v1/sessions/${s.id}`)).filter((e) => e.type === 'user.message').map((e) => e.data.content[0].text);
    expect(await sent()).toEqual(['/echo pasted\nsecond line']);
    // A fast typist over ssh: the text and its Enter reach svc together.
    await keys('m');
    await paneShows('next_turn›');
    await keys('-l', '/echo typed fast\r');
    await waitUntil(async () => (await sent()).length === 2 && (await sent())[1], 'the second message');
    expect((await sent())[1]).toBe('/echo typed fast');
    await keys('q');
    await paneShows(/END-OF-VIEW exit=0/);
  }, 120_000);

  it('issue 17: a narrower terminal redraws the view cleanly, no ghost header lines', async () => {
    const s = await createSession(t.emu, { title: `ghostcheck ${'wide '.repeat(20)}` });
    await tail(s.id);
    const count = (text: string) => text.split('"ghostcheck').length - 1;
    expect(count(await pane())).toBe(1);
    // Frames are drawn all the while (a reply streams): the terminal is narrowed between two of them.
    await send(t.emu, s.id, `/slow 20 ${'streaming '.repeat(60)}`);
    await paneShows(/running │ epoch 0/);
    for (const width of [100, 80, 60, 45]) {
      await tmux('resize-window', '-t', 'live', '-x', String(width), '-y', '40');
      // The header is drawn again at the new width before the next narrowing.
      await paneShows(new RegExp(`^${s.id} "ghostcheck.{0,${width - s.id.length - 12}}$`, 'm'));
    }
    await waitSession(t.emu, s.id, (x) => x.status === 'idle', 'the reply finished');
    // The view has drawn itself again: the pane no longer changes, and shows the keys.
    let previous: string | undefined;
    const text = await waitUntil(async () => {
      const now = await pane();
      const stable = now === previous && /│\s+idle\s+│/.test(now) && now.includes('q quit') ? now : undefined;
      previous = now;
      if (!stable) await new Promise((r) => setTimeout(r, 100));
      return stable;
    }, 'the view redrawn');
    expect(count(text), text).toBe(1);
    await keys('q');
    await paneShows(/END-OF-VIEW exit=0/);
    await tmux('resize-window', '-t', 'live', '-x', '120', '-y', '40');
  }, 120_000);
});
