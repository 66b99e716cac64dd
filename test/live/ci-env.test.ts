import { afterAll, describe, expect, it } from 'vitest';
import { openLiveView } from '../../src/live/open';
import { useEmulator } from '../helpers/emulator';
import { createSession, send, waitUntil } from '../helpers/sse';
import { ttyCtx } from './tty';

// Set before anything in this file loads Ink: Ink reads CI once, when it is evaluated.
const saved = process.env.CI;
process.env.CI = 'true';
afterAll(() => {
  if (saved === undefined) delete process.env.CI;
  else process.env.CI = saved;
});

const t = useEmulator({ modelStepMs: 5 });

describe('the live view under CI=true on a TTY', () => {
  it('draws frames while the session runs, not only the last one at exit, and leaves CI set', async () => {
    const s = await createSession(t.emu);
    const { ctx, stdin, stdout } = ttyCtx(t.emu);
    const view = openLiveView({ ctx, client: await ctx.api(), sessionId: s.id, deltas: true });
    await send(t.emu, s.id, '/echo drawn live');
    // Without hiding CI from Ink, nothing is written before unmount and this wait times out.
    await waitUntil(() => stdout.plain.includes('drawn live') && stdout.plain.includes('q quit'), 'a frame drawn while the view runs');
    expect(process.env.CI).toBe('true');
    stdin.press('q');
    await expect(view).resolves.toEqual({ reason: 'quit' });
  });
});
