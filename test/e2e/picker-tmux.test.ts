import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sharedBundle } from '../helpers/bundled';
import { describeWith } from '../helpers/requires';
import { tmuxTerminal } from '../helpers/tmux';
import { call, requestCount, useEmulator } from '../helpers/emulator';
import { createSession } from '../helpers/sse';

const repo = new URL('../..', import.meta.url).pathname;
/** The test's own folder: the terminal's socket and configuration, and the files its commands write. */
const work = join(repo, 'node_modules', '.cache', `picker-e2e-${process.pid}`);
/** The run's shared build of svc (test/helpers/bundled.ts). */
let bin = '';
const t = useEmulator({ modelStepMs: 5 });

const { pane, keys, paneShows, start, stop } = tmuxTerminal(work, 'pick');
/** Runs svc in the pane; the shell prints the exit code when it ends. */
const run = async (args: string) => {
  await keys('-l', `clear; node ${bin} ${args}; echo "END exit=$?"`);
  await keys('Enter');
};

describeWith('the picker for a missing ID in a real terminal (tmux)', ['tmux'], () => {
  const sessions: string[] = [];

  beforeAll(async () => {
    mkdirSync(work, { recursive: true });
    bin = await sharedBundle();
    // No CI variable: under CI svc never prompts (that case is in test/cli/picker.test.ts).
    await start({ emu: t.emu, width: 120, height: 40 });
    for (const title of ['older pick', 'newer pick']) sessions.unshift((await createSession(t.emu, { title })).id);
  }, 90_000);

  afterAll(async () => {
    await stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('sessions tail with no ID: the arrow key and Enter open the live view of the session picked', async () => {
    await run('sessions tail');
    const list = await paneShows('? Pick a session');
    expect(list.indexOf('newer pick')).toBeLessThan(list.indexOf('older pick'));
    await paneShows(new RegExp(`^> ${sessions[0]}`, 'm'));
    await keys('Down');
    await paneShows(new RegExp(`^> ${sessions[1]}`, 'm'));
    await keys('Enter');
    await paneShows(/^live │/m);
    expect(await pane()).toContain(sessions[1]);
    await keys('q');
    await paneShows(/END exit=0/);
  }, 120_000);

  it('Esc leaves the picker with exit 130, nothing written, and the terminal echoing again', async () => {
    const writes = async () => (await call(t.emu, 'GET', '/_emulator/stats')).body.writes ?? 0;
    const before = await writes();
    const reads = await requestCount(t.emu);
    await run('sessions archive');
    await paneShows('? Pick a session');
    await keys('Escape');
    await paneShows(/END exit=130/);
    expect(await writes()).toBe(before);
    expect(await requestCount(t.emu)).toBe(reads + 1);
    // Echo is back: typed text shows at the prompt.
    await keys('-l', 'echo typed-after');
    await paneShows(/PROMPT\$ echo typed-after/);
    await keys('C-u');
  }, 60_000);
});
