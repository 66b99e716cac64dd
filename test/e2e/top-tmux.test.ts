import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sharedBundle } from '../helpers/bundled';
import { call } from '../helpers/emulator';
import { useFleet } from '../helpers/fleet';
import { describeWith } from '../helpers/requires';
import { getSession } from '../helpers/sse';
import { tmuxTerminal } from '../helpers/tmux';

const repo = new URL('../..', import.meta.url).pathname;
/** The test's own folder: the terminal's socket and configuration, and the files its commands write. */
const work = join(repo, 'node_modules', '.cache', `top-e2e-${process.pid}`);
/** The run's shared build of svc (test/helpers/bundled.ts). */
let bin = '';
const t = useFleet();

const { keys, paneShows, start, stop } = tmuxTerminal(work, 'top');
/**
 * Esc, then the board without a filter: the next key waits for it, or the terminal reads Esc and that key as one
 * Alt-key (Esc then / became Alt-/, and the old filter stayed).
 */
const clearFilter = async (rows: number) => {
  await keys('Escape');
  await paneShows(new RegExp(`│ ${rows} rows │`));
};
/** Types a filter: `/`, the text, Enter. */
const filter = async (text: string) => {
  await keys('/');
  await keys('-l', text);
  await keys('Enter');
};
/** The table rows on the pane (lines that start with a session ID after the marker column). */
const rows = (text: string) => text.split('\n').filter((l) => /^[ *] sesn_/.test(l));

describeWith('svc top in a real terminal (tmux)', ['tmux'], () => {
  beforeAll(async () => {
    mkdirSync(work, { recursive: true });
    bin = await sharedBundle();
    // CI=true as a pipeline sets it: Ink would then draw only its last frame, and the board must still be live.
    await start({ emu: t.emu, width: 160, height: 50, ci: true });
  }, 90_000);

  afterAll(async () => {
    await stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('the board, an outside change, filter, interrupt, mark + archive, Enter and back, views, and q with the terminal as it was', async () => {
    const { fleet } = t;
    const before = join(work, 'stty-before');
    const after = join(work, 'stty-after');
    await keys(
      '-l',
      `stty -a > ${before}; node ${bin} top --interval 500ms --environment ${fleet.environment.id}; code=$?; stty -a > ${after}; echo "END-OF-TOP exit=$code"`,
    );
    await keys('Enter');

    // The board: every seeded session not archived, with its agent's name, and the counts in the header.
    await paneShows(/sessions: 27 \(9 running, 5 waiting\)/);
    // Agent names come a moment later (one read per agent).
    const board = await paneShows(/sesn_\w+\s+running 1\s+reviewer\s+running/);
    expect(board).toMatch(/live, polled/);
    expect(board).toMatch(/sesn_\w+\s+waiting 1\s+\w+\s+waiting \(reply\)\s+waiting on a human\s+1 /);
    expect(board).toMatch(/sesn_\w+\s+failed 1\s+\w+\s+failed\s+error/);
    expect(rows(board)).toHaveLength(27);

    // A change made elsewhere shows at the next poll.
    const idle1 = fleet.sessions.idle[0];
    await call(t.emu, 'PATCH', `/v1/sessions/${idle1}`, { body: { title: 'renamed elsewhere' } });
    await paneShows(new RegExp(`${idle1}\\s+renamed elsewhere`));

    // Filter.
    await filter('failed');
    const failed = await paneShows(/5 of 27 rows │ sort: updated │ filter: failed/);
    expect(rows(failed)).toHaveLength(5);
    await clearFilter(27);

    // Interrupt the running session selected by the filter.
    const running1 = fleet.sessions.running[0];
    await filter('running 1');
    await paneShows(/1 of 27 rows/);
    await paneShows(/i interrupt/);
    await keys('i');
    await paneShows('interrupted 1, unchanged 0, failed 0');
    // A slow reply winds down at its next step: stopping first, then interrupted.
    await paneShows(new RegExp(`${running1}\\s+running 1\\s+\\w+\\s+(running \\(stopping\\)|interrupted)`));
    expect((await getSession(t.emu, running1)).control_epoch).toBe('1');
    await clearFilter(27);

    // Mark two idle sessions (marks outlive a filter), then archive them after the question.
    const [, idle2, idle3] = fleet.sessions.idle;
    await filter('idle 2');
    await paneShows(/1 of 27 rows/);
    await keys('Space');
    await paneShows('1 marked');
    await clearFilter(27);
    await filter('idle 3');
    await paneShows(/1 of 27 rows/);
    await keys('Space');
    await paneShows('2 marked');
    await keys('a');
    await paneShows(/archive 2 sessions \(.*\)\? y archives, n cancels/);
    expect((await getSession(t.emu, idle2)).archived_at).toBeNull();
    await keys('y');
    await paneShows('archived 2, unchanged 0, failed 0');
    expect((await getSession(t.emu, idle2)).archived_at).not.toBeNull();
    expect((await getSession(t.emu, idle3)).archived_at).not.toBeNull();
    await keys('Escape');
    // Archived sessions leave the board (no --include-archived), and the filter is gone: waiting for that before the
    // next key keeps the terminal from reading Esc and the next / as one Alt-/.
    const afterArchive = await paneShows(/sessions: 25 [\s\S]*│ 25 rows │/);
    expect(afterArchive).not.toContain(idle2);

    // Enter opens the live view in place; its q comes back to the board, the filter and selection kept.
    const running2 = fleet.sessions.running[1];
    await filter('running 2');
    await paneShows(/1 of 25 rows/);
    await keys('Enter');
    await paneShows(new RegExp(`${running2} "running 2" │ running`));
    await paneShows(/i interrupt · m message · d hide deltas · q quit/);
    await keys('q');
    const back = await paneShows(/filter: running 2/);
    expect(back).toMatch(new RegExp(`${running2}\\s+running 2`));

    // The work rows of the environment, then the triggers.
    await clearFilter(25);
    await keys('2');
    const workView = await paneShows(/work rows of env_\w+/);
    await paneShows(/work_\w+\s+sesn_\w+\s+queued\s+1/);
    expect(workView).toMatch(/STATE\s+GEN\s+WORKER\s+HEARTBEAT/);
    await keys('3');
    await paneShows(/NAME\s+AGENT\s+STATUS\s+LAST RUN/);
    await keys('1');

    // q: exit 0, the shell's screen back (the alternate screen left) and the terminal's settings as they were.
    await keys('q');
    const end = await paneShows(/END-OF-TOP exit=0\nPROMPT\$/);
    expect(end).not.toContain('svc top │');
    expect(readFileSync(after, 'utf8')).toBe(readFileSync(before, 'utf8'));
  }, 180_000);
});
