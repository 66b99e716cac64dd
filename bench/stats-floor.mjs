/**
 * The floor for `svc stats`: a minimal Node script that lists the sessions labelled `run=RUN` (pages of 1000), then
 * pages each one's whole history (pages of 1000) with CONCURRENCY requests in flight, parsing every page and
 * counting its events by type. Usage: node bench/stats-floor.mjs BASE_URL KEY RUN CONCURRENCY
 */
const [base, key, run, concurrency] = process.argv.slice(2);
const headers = { authorization: `Bearer ${key}`, 'svc-api-version': '2026-09-01-beta', accept: 'application/json' };
const get = async (path) => {
  const res = await fetch(base + path, { headers });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  return res.json();
};
const ids = [];
let token;
do {
  const page = await get(`/v1/sessions?page_size=1000${token ? `&page_token=${token}` : ''}`);
  for (const s of page.items) if (s.metadata?.run === run) ids.push(s.id);
  token = page.next_page_token;
} while (token);
const types = new Map();
let next = 0;
await Promise.all(
  Array.from({ length: Number(concurrency) }, async () => {
    while (next < ids.length) {
      const id = ids[next++];
      let t;
      do {
        const page = await get(`/v1/sessions/${id}/events?page_size=1000${t ? `&page_token=${t}` : ''}`);
        for (const e of page.items) types.set(e.type, (types.get(e.type) ?? 0) + 1);
        t = page.next_page_token;
      } while (t);
    }
  }),
);
process.stdout.write(`${ids.length} sessions, ${[...types.values()].reduce((a, b) => a + b, 0)} events\n`);
