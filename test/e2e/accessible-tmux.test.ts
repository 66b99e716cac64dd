import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildPrivateSvc } from '../../scripts/bundle.mjs';
import { call, requestCount } from '../helpers/emulator';
import { useFleet } from '../helpers/fleet';
import { describeWith } from '../helpers/requires';
import { agentSession, getSession, send, waitUntil } from '../helpers/sse';
import { tmuxTerminal } from '../helpers/tmux';

const repo = new URL('../..', import.meta.url).pathname;
/** Inside node_modules so the bundle's external packages resolve; never the shared dist/, which others rebuild. */
const work = join(repo, 'node_modules', '.cache', `accessible-e2e-${process.pid}`);
// The fleet's running sessions stream a slow reply: an interrupt finds them running.
const t = useFleet({ modelStepMs: 5 });

const { tmux, keys, paneShows, start, stop } = tmuxTerminal(work, 'access');
let commands = 0;
/**
 * Types `svc ARGS` in accessible mode into the pane's shell, its output (the bytes the terminal got from svc) also
 * copied raw to a file by tmux's pipe-pane, started and stopped from inside the command line; returns the end line's
 * pattern and the file.
 */
const svc = async (args: string, code: number): Promise<{ ended: RegExp; raw: string }> => {
  const n = ++commands;
  const raw = join(work, `raw-${n}`);
  const pipe = `tmux -L svc-${work.split('/').at(-1)} -f ${join(work, 'tmux.conf')} pipe-pane -t access`;
  await keys(
    '-l',
    `clear; ${pipe} 'cat > ${raw}'; SVC_ACCESSIBLE=1 SVC_NO_UPDATE_NOTIFIER=1 node ${join(work, 'bin', 'svc.js')} ${args}; c=$?; ${pipe}; echo "END-$((${n})) exit=$c"`,
  );
  await keys('Enter');
  return { ended: new RegExp(`END-${n} exit=${code}`), raw };
};
/** The raw bytes svc wrote to the terminal (after the pipe closed). */
const rawText = (file: string) => (existsSync(file) ? readFileSync(file, 'latin1') : '');
/** Escape sequences that redraw: the alternate screen, cursor moves and hiding, erasing a line or the screen. */
const REDRAW = /\x1b\[\?1049[hl]|\x1b\[\d*[ABCDHJK]|\x1b\[\d+;\d+H|\x1b\[\?25[lh]|\x1b\[2K/;
const count = (text: string, line: string) => text.split(/\r?\n/).filter((l) => l.trimEnd() === line).length;

let group = 0;
/** `n` idle sessions labelled with a fresh `batch`, titled `<batch>-<i>`, newest first. */
async function batch(n: number): Promise<{ label: string; ids: string[] }> {
  const label = `acc${++group}`;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.unshift((await agentSession(t.emu, { name: `agent-${label}` }, { metadata: { batch: label }, title: `${label}-${i}` })).id);
  return { label, ids };
}

describeWith('accessible mode (SVC_ACCESSIBLE=1) in a real terminal (tmux)', ['tmux'], () => {
  beforeAll(async () => {
    await buildPrivateSvc(work);
    // No CI variable: under CI svc never prompts.
    await start({ emu: t.emu, width: 160, height: 50 });
    // tmux's own socket name for the pipe commands typed in the pane (tmuxTerminal names it after `work`).
    expect(await tmux('display-message', '-p', '-t', 'access', 'ok')).toContain('ok');
  }, 90_000);

  afterAll(async () => {
    await stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('sessions get with no ID: a numbered list, a number out of range asked again, then 2 and Enter gets the second', async () => {
    const { ids } = await batch(3);
    const { ended, raw } = await svc('sessions get -o json', 0);
    const list = await paneShows(/Type a number from 1 to \d+, then Enter/);
    expect(list).toMatch(/^\? Pick a session:$/m);
    const first = new RegExp(`^ 1\\. ${ids[0]}\\s+acc\\d-2\\s+idle`, 'm');
    const second = new RegExp(`^ 2\\. ${ids[1]}\\s+acc\\d-1\\s+idle`, 'm');
    expect(list).toMatch(first);
    expect(list).toMatch(second);
    await keys('-l', '99');
    await keys('Enter');
    await paneShows('Not one of the numbers: type a number from 1 to');
    await keys('2', 'Enter');
    const end = await paneShows(ended);
    expect(end).toContain(`picked 2: ${ids[1]}`);
    expect(end).toContain(`"id": "${ids[1]}"`);
    // Numbered rows, no cursor: nothing on the screen was redrawn, no colour marked the choice.
    expect(rawText(raw)).not.toMatch(REDRAW);
    expect(rawText(raw)).not.toContain('\x1b');
  }, 60_000);

  it('q at the numbered picker cancels with exit 130 and sends nothing', async () => {
    await batch(1);
    const { ended } = await svc('sessions archive', 130);
    await paneShows('Type a number from 1 to');
    const before = await requestCount(t.emu);
    await keys('q', 'Enter');
    await paneShows(ended);
    expect(await requestCount(t.emu)).toBe(before);
  }, 60_000);

  it('sessions archive --status idle: a y/n question, asked again after another answer; y archives them', async () => {
    const { label, ids } = await batch(3);
    const { ended, raw } = await svc(`sessions archive --status idle -l batch=${label}`, 0);
    await paneShows('Archive 3 sessions? Type y for yes or n for no, then Enter [default n]:');
    const before = await requestCount(t.emu);
    await keys('-l', 'maybe');
    await keys('Enter');
    await paneShows('Please type y or n, then Enter:');
    expect(await requestCount(t.emu)).toBe(before);
    await keys('y', 'Enter');
    expect(await paneShows(ended)).toContain('archived 3, unchanged 0, failed 0');
    for (const id of ids) expect((await getSession(t.emu, id)).archived_at).toBeTruthy();
    expect(rawText(raw)).not.toMatch(REDRAW);
  }, 60_000);

  it('sessions tail S: appended lines, each event and each state once, no alternate screen nor cursor moves', async () => {
    const s = await agentSession(t.emu, { name: 'agent-tail' }, { title: 'tail me' });
    const { ended, raw } = await svc(`sessions tail ${s.id}`, 0);
    await paneShows('keys (type one and Enter): m message, q quit');
    await paneShows(`session ${s.id}: idle`);
    await send(t.emu, s.id, 'hello plainly');
    await paneShows(/agent: You said: hello plainly[\s\S]*idle/);
    await waitUntil(() => count(rawText(raw).replace(/\r/g, ''), `session ${s.id}: idle`) === 2 || undefined, 'the second idle line');
    await keys('q', 'Enter');
    await paneShows(ended);
    const text = rawText(raw);
    expect(text).not.toMatch(REDRAW);
    expect(text).not.toContain('\x1b');
    const lines = text.replace(/\r/g, '').split('\n');
    const at = (l: string) => lines.indexOf(l);
    // In order, each once: the state before, the message, running, the reply, idle again.
    expect(count(text, 'you: hello plainly')).toBe(1);
    expect(count(text, `session ${s.id}: running`)).toBe(1);
    expect(count(text, 'agent: You said: hello plainly')).toBe(1);
    expect(count(text, `session ${s.id}: idle`)).toBe(2);
    expect(at('you: hello plainly')).toBeLessThan(at(`session ${s.id}: running`));
    expect(at(`session ${s.id}: running`)).toBeLessThan(at('agent: You said: hello plainly'));
    expect(lines.lastIndexOf(`session ${s.id}: idle`)).toBeGreaterThan(at('agent: You said: hello plainly'));
    expect(text).toContain('left the view; the session keeps running');
  }, 60_000);

  it('top: each session listed once with its state, then a line when one is interrupted; q and Enter leaves', async () => {
    const running = t.fleet.sessions.running[0];
    const { ended, raw } = await svc('top --interval 300ms', 0);
    await paneShows('svc top: each session');
    // Read from the raw copy: a fleet's lines may scroll past the pane.
    const said = (what: RegExp) => waitUntil(() => what.exec(rawText(raw)) ?? undefined, `a line ${what}`, 20_000);
    await said(new RegExp(`session ${running} "[^"]*": running\\r?\\n`));
    await call(t.emu, 'POST', `/v1/sessions/${running}/events`, { body: { events: [{ type: 'user.interrupt', data: {} }] } });
    // A slow reply winds down at its next step: stopping first, then interrupted.
    const change = (await said(new RegExp(`session ${running} "[^"]*": (running \\(stopping\\)|interrupted)\\r?\\n`)))[0];
    await keys('q', 'Enter');
    await paneShows(ended);
    const text = rawText(raw);
    expect(text).not.toMatch(REDRAW);
    // Each state once: the one listed, the change, nothing repeated at later polls.
    expect(text.split(change)).toHaveLength(2);
    expect(text.match(new RegExp(`session ${running} "[^"]*": running\\r?\\n`, 'g'))).toHaveLength(1);
  }, 60_000);
});
