/**
 * Tables that fit (docs/decisions/tables.md), in a real terminal at 80×24 and 120×40: the default table and the
 * watched rows fit the width (no line wraps; IDs and the state whole); `-o wide` prints whole values and lets the
 * terminal wrap; `svc stats --by agent` picks a layout that fits. The pane is captured with wrapped lines joined
 * (capture-pane -J), so a line longer than the width is one the terminal wrapped.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sharedBundle } from '../helpers/bundled';
import { call, useEmulator } from '../helpers/emulator';
import { describeWith } from '../helpers/requires';
import { send, waitSession } from '../helpers/sse';
import { tmuxTerminal } from '../helpers/tmux';
import { displayWidth } from '../../src/output/width';

const repo = new URL('../..', import.meta.url).pathname;
const t = useEmulator({ modelStepMs: 2 });
const LONG_LABEL = 'a-label-value-long-enough-to-be-squeezed-in-any-table-xyz';
const ids: string[] = [];

for (const [width, height] of [
  [80, 24],
  [120, 40],
] as const) {
  const work = join(repo, 'node_modules', '.cache', `tables-e2e-${width}-${process.pid}`);
  const term = tmuxTerminal(work, `tables${width}`);
  let bin = '';
  let n = 0;
  /** Runs a command line in the pane's shell after clearing it; resolves with the pane once it ended with `code`. */
  const command = async (line: string, code = 0): Promise<string> => {
    line = line.replace(/^node (\S+) /, 'node $1 --no-pager ');
    const end = `END-${++n} exit=`;
    await term.keys('-l', `clear; ${line}; echo "END-${n} exit=$?"`);
    await term.keys('Enter');
    const pane = await term.paneShows(new RegExp(`${end}\\d+`));
    expect(pane).toContain(`${end}${code}`);
    return pane.slice(0, pane.indexOf(`END-${n} exit=`));
  };
  /** The lines a command printed (the typed command line and the prompt left out). */
  const printed = (pane: string) => pane.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('PROMPT$'));
  const wider = (lines: string[]) => lines.filter((l) => displayWidth(l) > width);

  describeWith(`tables in a real terminal at ${width}×${height} (tmux)`, ['tmux'], () => {
    beforeAll(async () => {
      mkdirSync(work, { recursive: true });
      bin = await sharedBundle();
      if (ids.length === 0) {
        for (const name of ['reviewer-with-a-rather-long-agent-name', 'triager-with-an-even-longer-agent-name-here']) {
          const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name, model: 'scripted-1' } })).body.id as string;
          for (let i = 0; i < 3; i++) {
            const title = `A session title that goes on and on about what it is doing, number ${i}`;
            const s = (await call(t.emu, 'POST', '/v1/sessions', { body: { agent_id: agent, title, metadata: { fit: 'yes', note: LONG_LABEL } } })).body
              .id as string;
            await send(t.emu, s, i === 2 ? '/error model_error' : 'Summarise the weather.');
            ids.push(s);
          }
        }
        for (const id of ids) await waitSession(t.emu, id, (s) => s.status === 'idle', 'idle');
      }
      await term.start({ emu: t.emu, width, height });
    }, 120_000);

    afterAll(async () => {
      await term.stop();
      rmSync(work, { recursive: true, force: true });
    });

    it('sessions list fits the width: no line wraps, every ID and state whole', async () => {
      const lines = printed(await command(`node ${bin} sessions list -l fit=yes`));
      expect(lines[0]).toMatch(/^ID\s+TITLE\s+STATUS\s+AGENT/);
      expect(wider(lines)).toEqual([]);
      for (const id of ids) expect(lines.some((l) => new RegExp(`^${id}\\s+\\S.*\\s(idle|failed)\\s`).test(l))).toBe(true);
    }, 60_000);

    it('-o wide prints whole values (the label in full) and lets the terminal wrap', async () => {
      const lines = printed(await command(`node ${bin} sessions list -l fit=yes -o wide`));
      // The rows on screen (at 80×24 the first may have scrolled away): each whole, wrapped by the terminal.
      const rows = lines.filter((l) => l.startsWith('sesn_'));
      expect(rows.length).toBeGreaterThanOrEqual(3);
      for (const r of rows) expect(r).toMatch(new RegExp(`A session title that goes on and on about what it is doing, number \\d.*${LONG_LABEL}`));
      expect(wider(rows).length).toBe(rows.length);
      expect(lines.join('\n')).not.toMatch(/LABE…/);
    }, 60_000);

    it('sessions list -w: the watched rows fit the width and never wrap (AGE stays on its row)', async () => {
      const lines = printed(await command(`node ${bin} sessions list -l fit=yes -w --timeout 2s`));
      expect(lines[0]).toMatch(/^EVENT\s+ID\s+STATUS\s+TITLE\s+AGENT\s+AGE$/);
      expect(lines.filter((l) => l.startsWith('ADDED'))).toHaveLength(ids.length);
      expect(wider(lines)).toEqual([]);
      for (const l of lines.filter((x) => x.startsWith('ADDED'))) expect(l).toMatch(/\s\d+[smhd]$/);
    }, 60_000);

    it('svc stats --by agent picks a layout that fits', async () => {
      const lines = printed(await command(`node ${bin} stats -l fit=yes --by agent --no-cache`));
      expect(wider(lines)).toEqual([]);
      const text = lines.join('\n');
      expect(text).toContain('reviewer-with-a-rather-long-agent-name');
      expect(text).toMatch(/sessions|SESSIONS/);
    }, 60_000);

    if (width === 80)
      it('auth login at a prompt says where the base URL came from and stores it only when confirmed', async () => {
        await term.keys('-l', `clear; node ${bin} auth login; echo "END-login exit=$?"`);
        await term.keys('Enter');
        await term.paneShows('API key:');
        await term.keys('-l', t.emu.apiKey);
        await term.keys('Enter');
        await term.paneShows(`Store base_url ${t.emu.url} (from SVC_BASE_URL) in profile default? [y/N]`);
        await term.keys('n', 'Enter');
        const pane = await term.paneShows(/END-login exit=\d+/);
        expect(pane).toContain('END-login exit=0');
        expect(pane).toContain(`came from SVC_BASE_URL (give --base-url`);
        expect(pane).not.toContain(t.emu.apiKey);
      }, 60_000);
  });
}
