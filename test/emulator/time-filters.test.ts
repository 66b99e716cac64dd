// Rules proved here: R-PAGE-9
// The session list's time filters over 100 000 sessions: exact against a plain filter, and a page costs about its
// own records (counted by the collection), not a scan of the fleet.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Collection, Rec } from '../../src/emulator/store';
import { call, useEmulator } from '../helpers/emulator';
import { waitUntil } from '../helpers/sse';

const t = useEmulator();
const FLEET = 100_000;
let sessions: Collection<Rec>;
let touched: Rec[] = [];
let mid: Rec;

/** Every page of `query`, newest first, as IDs. */
async function all(query: string): Promise<string[]> {
  const ids: string[] = [];
  let token: string | null = null;
  do {
    const r = await call(t.emu, 'GET', `/v1/sessions?page_size=1000&${query}${token ? `&page_token=${token}` : ''}`);
    expect(r.status).toBe(200);
    ids.push(...r.body.items.map((s: Rec) => s.id));
    token = r.body.next_page_token;
  } while (token);
  return ids;
}

/** What the list must answer: the records passing `test`, unarchived, newest first. */
const expected = (test: (r: Rec) => boolean): string[] =>
  sessions
    .values()
    .filter((r) => !r.archived_at && test(r))
    .map((r) => r.id)
    .reverse();

const ms = (iso: string): number => Date.parse(iso);

beforeAll(async () => {
  sessions = t.emu.collection<Rec>('sessions', 'sesn', 'session');
  for (let i = 0; i < FLEET; i++) sessions.insert({ agent_id: 'agent_x', status: 'idle', title: `s${i}`, metadata: {}, archived_at: null });
  const rows = sessions.ordered();
  mid = rows[Math.floor(FLEET * 0.6)];
  // Let the clock move on, then change a few sessions: only they are newer than `since`.
  const since = Date.now();
  await waitUntil(() => Date.now() > since + 2, 'the clock to move on');
  touched = [rows[10], rows[50_000], rows[99_999]].map((r) => sessions.touch(r, { title: 'changed' }));
  sessions.archive(rows[20]);
}, 120_000);

describe('session list time filters at 100 000 sessions', () => {
  it('R-PAGE-9 created_at_gte / created_at_lt answer exactly the sessions in the range, newest first, across pages', async () => {
    const from = ms(mid.created_at);
    const got = await all(`created_at_gte=${mid.created_at}&created_at_lt=${new Date(from + 3).toISOString()}`);
    expect(got).toEqual(expected((r) => ms(r.created_at) >= from && ms(r.created_at) < from + 3));
    expect(got).toContain(mid.id);
  });

  it('R-PAGE-9 gt and lte exclude and include the bound itself', async () => {
    const at = mid.created_at;
    const gt = await all(`created_at_gt=${at}&created_at_lte=${new Date(ms(at) + 1).toISOString()}`);
    expect(gt).not.toContain(mid.id);
    expect(gt).toEqual(expected((r) => ms(r.created_at) > ms(at) && ms(r.created_at) <= ms(at) + 1));
  });

  it('R-PAGE-9 updated_at_gt answers only the sessions changed since, and include_archived adds the archived one', async () => {
    const bound = touched[0].updated_at;
    const before = new Date(ms(bound) - 1).toISOString();
    expect(await all(`updated_at_gt=${before}`)).toEqual(
      touched
        .map((r) => r.id)
        .sort()
        .reverse(),
    );
    const archived = sessions.ordered()[20];
    expect(await all(`updated_at_gt=${before}&include_archived=true`)).toContain(archived.id);
  });

  it('a filtered page visits about its own records, not the 100 000 a scan would', async () => {
    const before = new Date(ms(touched[0].updated_at) - 1).toISOString();
    sessions.visited = 0;
    await call(t.emu, 'GET', `/v1/sessions?updated_at_gt=${before}`);
    const watchPoll = sessions.visited;

    sessions.visited = 0;
    const first = await call(t.emu, 'GET', `/v1/sessions?page_size=50&created_at_lte=${mid.created_at}`);
    expect(first.body.items).toHaveLength(50);
    sessions.visited = 0;
    const second = await call(t.emu, 'GET', `/v1/sessions?page_size=50&created_at_lte=${mid.created_at}&page_token=${first.body.next_page_token}`);
    expect(second.body.items).toHaveLength(50);
    const deepPage = sessions.visited;

    // The same answers from a full scan, in the same process, visit every session.
    const scan = sessions.values().filter((r) => ms(r.updated_at) > ms(before)).length;
    expect(scan).toBeGreaterThan(0);
    expect(watchPoll).toBeGreaterThan(0);
    expect(watchPoll).toBeLessThan(20);
    expect(deepPage).toBeLessThan(60);
    expect(FLEET / Math.max(watchPoll, deepPage)).toBeGreaterThan(1000);
  });

  it('a malformed time bound is 400 naming the parameter', async () => {
    const r = await call(t.emu, 'GET', '/v1/sessions?updated_at_gt=yesterday');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: 'invalid_parameter_error', param: 'query.updated_at_gt' });
  });
});
