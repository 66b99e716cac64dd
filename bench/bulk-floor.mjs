/**
 * The floor for bulk archive: a minimal Node script that lists the sessions labelled `run=RUN` (pages of 1000) and
 * archives each with 8 requests in flight. Usage: node bench/bulk-floor.mjs BASE_URL KEY RUN
 */
const [base, key, run] = process.argv.slice(2);
const headers = { authorization: `Bearer ${key}`, 'svc-api-version': '2026-09-01-beta', accept: 'application/json' };
const ids = [];
let token;
do {
  const page = await (await fetch(`${base}/v1/sessions?page_size=1000${token ? `&page_token=${token}` : ''}`, { headers })).json();
  for (const s of page.items) if (s.metadata?.run === run) ids.push(s.id);
  token = page.next_page_token;
} while (token);
let next = 0;
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (next < ids.length) {
      const res = await fetch(`${base}/v1/sessions/${ids[next++]}/archive`, { method: 'POST', headers });
      if (!res.ok) throw new Error(`archive: ${res.status}`);
      await res.arrayBuffer();
    }
  }),
);
process.stdout.write(`archived ${ids.length}\n`);
