// The trace waterfall in a real terminal (tmux) at 80 and 120 columns: every row fits, one time axis for all rows,
// the longest spans named, and the pager's end leaves the prompt.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sharedBundle } from '../helpers/bundled';
import { useEmulator } from '../helpers/emulator';
import { describeWith } from '../helpers/requires';
import { tmuxTerminal } from '../helpers/tmux';
import { agent, append, session } from '../stats/history';
import { tracedHistory } from '../trace/history';

const repo = new URL('../..', import.meta.url).pathname;
const t = useEmulator({ modelStepMs: 5 });

for (const width of [80, 120]) {
  const work = join(repo, 'node_modules', '.cache', `trace-e2e-${width}-${process.pid}`);
  const { keys, paneShows, start, stop } = tmuxTerminal(work, `trace${width}`);

  describeWith(`sessions trace: the waterfall in a real terminal ${width} columns wide (tmux)`, ['tmux'], () => {
    let bin = '';
    beforeAll(async () => {
      mkdirSync(work, { recursive: true });
      bin = await sharedBundle();
      await start({ emu: t.emu, width, height: 40 });
    }, 90_000);

    afterAll(async () => {
      await stop();
      rmSync(work, { recursive: true, force: true });
    });

    it('rows fit the width, bars share one axis, the longest spans are named', async () => {
      const s = await session(t.emu, await agent(t.emu, `trace-tmux-${width}`));
      await append(t.emu, s, tracedHistory());
      await keys('-l', `SVC_PAGER=cat node ${bin} sessions trace ${s}; echo "END-OF-TRACE exit=$?"`);
      await keys('Enter');
      const text = await paneShows(/END-OF-TRACE exit=0/);
      const lines = text.split('\n');
      const top = lines.findIndex((l) => l.startsWith('span '));
      expect(top).toBeGreaterThan(0);
      const rows = lines.slice(top, lines.findIndex((l) => l.startsWith('longest: ')) + 1);
      expect(rows.length).toBe(20);
      // No row wrapped: each pane line is a whole row, and the longest row uses the width.
      for (const r of rows) expect(r.length, r).toBeLessThanOrEqual(width);
      expect(Math.max(...rows.map((r) => r.length))).toBeGreaterThan(width - 4);
      const bar = (prefix: string) => rows.find((r) => r.startsWith(prefix))!.search(/[█░]/);
      expect(bar('turn 1')).toBeLessThan(bar('    await confirmation'));
      expect(bar('turn 2')).toBeGreaterThan(bar('  execute_tool deploy'));
      expect(rows.at(-1)).toMatch(/^longest: execute_tool deploy 6\.00s/);
    });
  });
}
