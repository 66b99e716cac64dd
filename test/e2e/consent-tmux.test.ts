import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sharedBundle } from '../helpers/bundled';
import { describeWith } from '../helpers/requires';
import { tmuxTerminal } from '../helpers/tmux';
import { requestCount, useEmulator } from '../helpers/emulator';
import { agentSession, getSession } from '../helpers/sse';

const repo = new URL('../..', import.meta.url).pathname;
/** The test's own folder: the terminal's socket and configuration, and the files its commands write. */
const work = join(repo, 'node_modules', '.cache', `consent-e2e-${process.pid}`);
const t = useEmulator();

const { keys, paneShows, start, stop } = tmuxTerminal(work, 'consent');
let commands = 0;
/** Types a command line into the pane's shell, clearing the screen first; returns the pattern of its end line (with the exit code). */
const command = async (line: string, code: number): Promise<RegExp> => {
  const n = ++commands;
  await keys('-l', `clear; ${line}; echo "END-$((${n})) exit=$?"`);
  await keys('Enter');
  return new RegExp(`END-${n} exit=${code}`);
};

let group = 0;
/** `n` idle sessions labelled with a fresh `batch`, titled `<batch>-<i>`. */
async function batch(n: number): Promise<{ label: string; ids: string[] }> {
  const label = `tty${++group}`;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await agentSession(t.emu, { name: `agent-${label}` }, { metadata: { batch: label }, title: `${label}-${i}` })).id);
  return { label, ids };
}
const archived = async (ids: string[]) => Promise.all(ids.map(async (id) => Boolean((await getSession(t.emu, id)).archived_at)));

describeWith('the bulk consent prompt in a real terminal (tmux)', ['tmux'], () => {
  let svcBin = '';

  beforeAll(async () => {
    mkdirSync(work, { recursive: true });
    svcBin = await sharedBundle();
    // No CI variable: with one set, svc never prompts (as --no-input).
    await start({ emu: t.emu, width: 160, height: 40 });
  }, 90_000);

  afterAll(async () => {
    await stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('the prompt shows the count and the first rows; n sends no write and exits 2', async () => {
    const { label, ids } = await batch(7);
    const ended = await command(`node ${svcBin} sessions archive -l batch=${label}`, 2);
    const asked = await paneShows('Archive 7 sessions? [y/N]');
    // The first five rows (ID, status, title), then how many more.
    const rows = asked.split('\n').filter((l) => l.startsWith(`  sesn_`) || l.includes('more'));
    expect(rows).toHaveLength(6);
    for (const row of rows.slice(0, 5)) expect(row).toMatch(new RegExp(`^  \\S+  idle  ${label}-\\d$`));
    expect(rows[5]).toBe('  … and 2 more');
    const before = await requestCount(t.emu);
    await keys('n', 'Enter');
    const end = await paneShows(ended);
    expect(end).toContain('error: not confirmed; nothing was sent');
    // Not a request after the answer: the selection was read before asking.
    expect(await requestCount(t.emu)).toBe(before);
    expect(await archived(ids)).toEqual(ids.map(() => false));
  }, 60_000);

  it('y proceeds: every selected session is archived, with a result table and the summary line', async () => {
    const { label, ids } = await batch(3);
    const ended = await command(`node ${svcBin} sessions archive -l batch=${label}`, 0);
    await paneShows('Archive 3 sessions? [y/N]');
    await keys('y', 'Enter');
    const end = await paneShows(ended);
    expect(end).toMatch(/^ID\s+ACTION\s+RESULT/m);
    expect(end).toContain('archived 3, unchanged 0, failed 0');
    expect(await archived(ids)).toEqual([true, true, true]);
  }, 60_000);

  it('one session needs no consent, and --yes skips the prompt on a terminal too', async () => {
    const one = await batch(1);
    expect(await paneShows(await command(`node ${svcBin} sessions archive -l batch=${one.label}`, 0))).not.toContain('[y/N]');
    const two = await batch(2);
    expect(await paneShows(await command(`node ${svcBin} sessions archive -l batch=${two.label} --yes`, 0))).not.toContain('[y/N]');
    expect(await archived([...one.ids, ...two.ids])).toEqual([true, true, true]);
  }, 60_000);

  it('sessions archive - with IDs typed and Ctrl-D: no answer can be read, so exit 2 saying so, nothing archived', async () => {
    const { ids } = await batch(2);
    const ended = await command(`node ${svcBin} sessions archive -`, 2);
    for (const id of ids) {
      await keys('-l', id);
      await keys('Enter');
    }
    await keys('C-d');
    const end = await paneShows(ended);
    expect(end).toContain('standard input has ended (the IDs were read from it), so no answer can be read: pass --yes to confirm; nothing was sent');
    expect(await archived(ids)).toEqual([false, false]);
  }, 60_000);

  it('argument IDs and Ctrl-D at the prompt: no answer is exit 2, nothing archived', async () => {
    const { ids } = await batch(2);
    const ended = await command(`node ${svcBin} sessions archive ${ids.join(' ')}`, 2);
    await paneShows('Archive 2 sessions? [y/N]');
    await keys('C-d');
    expect(await paneShows(ended)).toContain('error: no answer given');
    expect(await archived(ids)).toEqual([false, false]);
  }, 60_000);
});
