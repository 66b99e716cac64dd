/**
 * The floor for `svc sessions trace`: a minimal Node script that pages one session's whole history (pages of 1000),
 * parsing every page and doing nothing with it. Usage: node bench/history-floor.mjs BASE_URL KEY SESSION
 */
const [base, key, session] = process.argv.slice(2);
const headers = { authorization: `Bearer ${key}`, 'svc-api-version': '2026-09-01-beta', accept: 'application/json' };
let n = 0;
let token;
do {
  const res = await fetch(`${base}/v1/sessions/${session}/events?page_size=1000${token ? `&page_token=${token}` : ''}`, { headers });
  if (!res.ok) throw new Error(`GET events: ${res.status}`);
  const page = await res.json();
  n += page.items.length;
  token = page.next_page_token;
} while (token);
process.stdout.write(`${n} events\n`);
