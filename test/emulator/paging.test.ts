// Rules proved here: R-PAGE-1, R-PAGE-4
// The agents list pages newest first by position in the creation-ordered collection; these pin that the position is only a hint.
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();

async function createAgents(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await call(t.emu, 'POST', '/v1/agents', { body: { name: `paging-${i}`, model: 'scripted-1' } })).body.id);
  return ids;
}

/** Every page of the agents list from `token` on, with `between(page)` run after each page. */
async function pages(query: string, between: (n: number) => Promise<void> = async () => {}): Promise<string[]> {
  const seen: string[] = [];
  let token: string | undefined;
  for (let n = 0; ; n++) {
    const r = await call(t.emu, 'GET', `/v1/agents?page_size=3${query}${token ? `&page_token=${token}` : ''}`);
    expect(r.status).toBe(200);
    seen.push(...r.body.items.map((a: { id: string }) => a.id));
    token = r.body.next_page_token ?? undefined;
    if (!token) return seen;
    await between(n);
  }
}

describe('emulator list paging by position', () => {
  it('R-PAGE-1 R-PAGE-4: pages stay newest first, each agent once, when agents before the token are deleted meanwhile', async () => {
    const ids = await createAgents(10);
    const before = await pages('');
    const mine = before.filter((id) => ids.includes(id));
    expect(mine).toEqual([...ids].reverse());
    // After the second page, delete the last agent listed (the oldest): the token's position is stale, its id still leads.
    const seen = await pages('', async (n) => {
      if (n === 1) expect((await call(t.emu, 'DELETE', `/v1/agents/${before[before.length - 1]}`)).status).toBeLessThan(300);
    });
    expect(seen).toEqual(before.slice(0, -1));
  });

  it("R-PAGE-4: when the token's own agent is deleted, the next page starts after where it stood", async () => {
    await createAgents(7);
    const before = await pages('');
    const seen = await pages('', async (n) => {
      if (n === 0) await call(t.emu, 'DELETE', `/v1/agents/${before[2]}`);
    });
    expect(seen).toEqual(before);
  });

  it('archived agents are skipped between pages and the last page has no token', async () => {
    const ids = await createAgents(8);
    for (const id of ids.slice(3, 7)) await call(t.emu, 'POST', `/v1/agents/${id}/archive`);
    const shown = await pages('');
    expect(shown.filter((id) => ids.includes(id))).toEqual([ids[7], ...ids.slice(0, 3).reverse()]);
    expect((await pages('&include_archived=true')).filter((id) => ids.includes(id))).toEqual([...ids].reverse());
  });
});
