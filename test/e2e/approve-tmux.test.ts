import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sharedBundle } from '../helpers/bundled';
import { call, useEmulator } from '../helpers/emulator';
import { describeWith } from '../helpers/requires';
import { tmuxTerminal } from '../helpers/tmux';
import { confirmations, waitingOn } from '../approve/helpers';

const repo = new URL('../..', import.meta.url).pathname;
const work = join(repo, 'node_modules', '.cache', `approve-e2e-${process.pid}`);
let bin = '';
const t = useEmulator();
const { keys, paneShows, start, stop } = tmuxTerminal(work, 'approve');

describeWith('svc approve in a real terminal (tmux)', ['tmux'], () => {
  beforeAll(async () => {
    mkdirSync(work, { recursive: true });
    bin = await sharedBundle();
    await start({ emu: t.emu, width: 160, height: 40, ci: true });
  }, 90_000);

  afterAll(async () => {
    await stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('answer (y), skip (s), deny with a message (n), a confirmation answered elsewhere vanishes, q', async () => {
    const tag = `tmux-${Date.now()}`;
    const [a, b, c] = await waitingOn(t.emu, [
      { tool: 'bash', input: { command: 'ls -la /srv' }, metadata: { q: tag } },
      { tool: 'read', input: { path: '/etc/hosts' }, metadata: { q: tag } },
      { tool: 'deploy_service', input: { target: 'prod-eu' }, metadata: { q: tag } },
    ]);
    await keys('-l', `node ${bin} approve -l q=${tag} --interval 300ms; echo "END-OF-APPROVE exit=$?"`);
    await keys('Enter');
    const first = await paneShows(/3 awaited confirmations/);
    // Oldest first, the selected call's input shown.
    expect(first.indexOf(a)).toBeLessThan(first.indexOf(b));
    expect(first).toContain('"command": "ls -la /srv"');

    await keys('y');
    await paneShows(/2 awaited confirmations/);
    expect((await confirmations(t.emu, a)).map((e) => e.data.result)).toEqual(['allow']);

    await keys('s');
    await paneShows(`skipped read in ${b}`);
    // The deploy is selected now: deny it, with a message.
    await paneShows('"target": "prod-eu"');
    await keys('n');
    await paneShows('deny: message to the agent');
    await keys('-l', 'not on prod');
    await keys('Enter');
    await paneShows(/1 awaited confirmation\b/);
    expect((await confirmations(t.emu, c)).map((e) => e.data)).toEqual([expect.objectContaining({ result: 'deny', deny_message: 'not on prod' })]);

    // Someone else answers the skipped one: it leaves the queue.
    const [asked] = (await call(t.emu, 'GET', `/v1/sessions/${b}`)).body.stop_reason.event_ids;
    await call(t.emu, 'POST', `/v1/sessions/${b}/events`, {
      body: { events: [{ type: 'user.tool_confirmation', data: { event_id: asked, result: 'allow' } }] },
    });
    const gone = await paneShows('nothing awaits a confirmation');
    expect(gone).toContain(`answered elsewhere: read in ${b}`);

    await keys('q');
    await paneShows(/END-OF-APPROVE exit=0/);
  }, 90_000);
});
