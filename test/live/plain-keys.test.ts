/** Accessible mode's live view (src/live/plain.ts): the keys line names the keys that apply now, each time they change. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Ctx } from '../../src/runtime/context';
import { mountPlainView } from '../../src/live/plain';
import { initialState } from '../../src/live/reducer';
import type { ActionSink } from '../../src/live/sink';
import { LiveStore } from '../../src/live/store';
import { Capture } from '../helpers/cli';

describe('accessible live view: the keys line', () => {
  it('offers i interrupt as soon as the session reads running, without ?; once per change', async () => {
    const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
    stdin.isTTY = true;
    const stdout = new Capture();
    const store = new LiveStore(initialState('sesn_1'), 0);
    const ctx = { io: { stdin, stdout } } as unknown as Ctx;
    const view = await mountPlainView({ ctx, store, sink: {} as ActionSink });
    store.dispatch({ type: 'session', session: { id: 'sesn_1', status: 'idle' } as never });
    store.publishNow();
    store.dispatch({ type: 'session', session: { id: 'sesn_1', status: 'running' } as never });
    store.publishNow();
    store.dispatch({ type: 'session', session: { id: 'sesn_1', status: 'running', title: 'same keys' } as never });
    store.publishNow();
    await view.unmount();
    stdin.destroy();
    const keys = stdout.text.split('\n').filter((l) => l.startsWith('keys'));
    expect(keys.at(-1)).toMatch(/^keys \(type one and Enter\): i interrupt, m message/);
    expect(keys.filter((l) => l.includes('i interrupt'))).toHaveLength(1);
    expect(keys.slice(0, -1).every((l) => !l.includes('i interrupt'))).toBe(true);
  });
});
