import { describe, expect, it } from 'vitest';
import { eventPagesAfter, HISTORY_PAGE_SIZE } from '../../src/api/stream/backfill';
import { time } from '../../src/api/stream/dedupe';
import { call, useEmulator } from '../helpers/emulator';
import { history } from '../helpers/sse';
import { client } from '../api/stream/helpers';

const t = useEmulator({ modelStepMs: 1 });

describe('a resumed listener reads the gap a page at a time', () => {
  it('gives every event after the anchor once, oldest first, never more than a page at once, while the session keeps writing', async () => {
    const sid = (await call(t.emu, 'POST', '/_emulator/seed', { body: { session_events: 2 * HISTORY_PAGE_SIZE + 500 } })).body.session_id as string;
    const before = await history(t.emu, `/v1/sessions/${sid}`);
    const anchor = before[4];
    const pages: string[][] = [];
    for await (const events of eventPagesAfter({ client: client(t.emu), sessionId: sid }, { kind: 'after', id: anchor.id, at: time(anchor) })) {
      pages.push(events.map((e) => e.id));
      // Events appended while the gap is read move the newest page; the pages already found do not move.
      t.emu.services.sessions!.seedEvents(sid, 3);
    }
    expect(pages.every((p) => p.length <= HISTORY_PAGE_SIZE)).toBe(true);
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.flat()).toEqual(before.slice(5).map((e) => e.id));
  });
});
