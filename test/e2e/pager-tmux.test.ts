import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sharedBundle } from '../helpers/bundled';
import { describeWith } from '../helpers/requires';
import { tmuxTerminal } from '../helpers/tmux';
import { call, useEmulator } from '../helpers/emulator';

const repo = new URL('../..', import.meta.url).pathname;
/** The test's own folder: the terminal's socket and configuration. */
const work = join(repo, 'node_modules', '.cache', `pager-e2e-${process.pid}`);
/** The run's shared build of svc (test/helpers/bundled.ts). */
let bin = '';
const t = useEmulator();

const HEIGHT = 20;
const { pane, keys, paneShows, start, stop } = tmuxTerminal(work, 'pager');
/** How many runs were started: each run's end line is its own, so a pane not yet cleared never passes for the next. */
let runs = 0;
/** Runs svc in the pane (after `vars`, shell assignments); the shell prints the exit code when it ends. */
const run = async (args: string, vars = '') => {
  runs++;
  await keys('-l', `clear; ${vars} node ${bin} ${args}; echo "END-${runs} exit=$?"`);
  await keys('Enter');
};
/** The end line of the last run, exit 0. */
const endedOk = () => new RegExp(`END-${runs} exit=0`);
/** A pager that marks each line it shows, so the pane tells paged lines from written ones. */
const MARKING = `SVC_PAGER='sed s/^/PAGED:/'`;

describeWith('the pager in a real terminal (tmux)', ['tmux', 'less'], () => {
  let first = '';
  let last = '';
  let long = '';

  beforeAll(async () => {
    mkdirSync(work, { recursive: true });
    bin = await sharedBundle();
    // No CI variable: under CI svc never pages.
    await start({ emu: t.emu, width: 150, height: HEIGHT });
    for (let i = 0; i < 3 * HEIGHT; i++) {
      const id = (await call(t.emu, 'POST', '/v1/agents', { body: { name: `paged-${String(i).padStart(2, '0')}`, model: 'm' } })).body.id;
      if (i === 0) first = id;
      last = id;
    }
    const system = Array.from({ length: 2 * HEIGHT }, (_, i) => `rule ${i}`).join('\n');
    long = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'zz-long', model: 'm', system } })).body.id;
  }, 90_000);

  afterAll(async () => {
    await stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('a table longer than the screen opens in less -FRX: one screen shown, q quits with exit 0 and the screen kept', async () => {
    await run('agents list --all --sort-by .name');
    await paneShows(/^ID\s+NAME/m);
    let text = await pane();
    expect(text).toContain(first);
    expect(text).not.toContain(`END-${runs} exit=`);
    expect(text).not.toContain(last);
    await keys('G');
    await paneShows(last);
    await keys('q');
    text = await paneShows(endedOk());
    // -X: less leaves what it showed on the screen.
    expect(text).toContain(last);
  }, 60_000);

  it('SVC_PAGER wins over PAGER, and a table that fits the screen is written without one', async () => {
    await run('agents list --all', `PAGER='sed s/^/WRONG:/' ${MARKING}`);
    let text = await paneShows(endedOk());
    expect(text).toMatch(/^PAGED:agent_\S+\s+paged-/m);
    expect(text).not.toContain('WRONG:');
    await run('agents list --limit 3', MARKING);
    text = await paneShows(endedOk());
    expect(text).toMatch(/^ID\s+NAME/m);
    expect(text).not.toContain('PAGED:');
  }, 60_000);

  it('--no-pager, an empty SVC_PAGER, CI, or a pipe: no pager', async () => {
    for (const [args, vars] of [
      ['agents list --all --no-pager', MARKING],
      ['agents list --all', "SVC_PAGER='' PAGER='sed s/^/PAGED:/'"],
      ['agents list --all', `CI=1 ${MARKING}`],
      ['agents list --all -o table | tail -n 3', MARKING],
    ]) {
      await run(args, vars);
      const text = await paneShows(endedOk());
      expect(text, `${vars} ${args}`).not.toContain('PAGED:');
      expect(text).toMatch(/paged-\d\d/);
    }
  }, 60_000);

  it('a pager that exits before reading it all is no error: exit 0, nothing on stderr', async () => {
    await run(`agents list --all 2>${join(work, 'err.txt')}; cat ${join(work, 'err.txt')}`, `SVC_PAGER='head -n 2'`);
    const text = await paneShows(endedOk());
    expect(text).toMatch(/^ID\s+NAME/m);
    expect(text).not.toMatch(/error|EPIPE/i);
  }, 60_000);

  it('svc help reference and a get in YAML go through the pager too', async () => {
    await run('help reference', MARKING);
    let text = await paneShows(endedOk());
    expect(text).toContain('PAGED:');
    await run(`agents get ${long} -o yaml`, MARKING);
    text = await paneShows(endedOk());
    expect(text).toMatch(/^PAGED: {2}rule \d+$/m);
    await run(`agents get ${first} -o yaml`, MARKING);
    text = await paneShows(endedOk());
    expect(text).toMatch(/^id: /m);
    expect(text).not.toContain('PAGED:');
  }, 60_000);

  it('Ctrl-C twice while less pages: svc waits for less (no orphan eating keys), q ends both with 130 (issue 45 item 6)', async () => {
    await run('agents list --all --sort-by .name');
    await paneShows(/^ID\s+NAME/m);
    await keys('C-c');
    await keys('C-c');
    // The launcher used to exit 130 here, the shell's prompt back while less still read the terminal.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await pane()).not.toContain(`END-${runs} exit=`);
    await keys('q');
    await paneShows(new RegExp(`END-${runs} exit=130`));
    await keys('-l', 'echo typed-after');
    await keys('Enter');
    await paneShows(/^typed-after$/m);
  }, 60_000);

  it('Ctrl-C ending the pager (sleep) is an interruption: exit 130, not 0 (issue 45 item 17)', async () => {
    await run('agents list --all', `SVC_PAGER="sh -c 'echo PAGER-UP; exec sleep 300'"`);
    await paneShows(/^PAGER-UP$/m);
    await keys('C-c');
    await paneShows(new RegExp(`END-${runs} exit=130`));
  }, 60_000);

  it('a pager ended by a signal before svc sees one (the race of a Ctrl-C reaching both) is an interruption: 130', async () => {
    // The pager dies of SIGTERM and svc gets no signal at all: only the pager's own end can say so.
    await run('agents list --all', `SVC_PAGER="sh -c 'echo PAGER-UP; kill -TERM \\$\\$'"`);
    await paneShows(/^PAGER-UP$/m);
    await paneShows(new RegExp(`END-${runs} exit=130`));
  }, 60_000);
});
