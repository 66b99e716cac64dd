/**
 * `svc work stats ENV` over N work rows: requests sent and peak RSS, at N and 10·N (one pass of paging in constant
 * memory: the RSS should not grow with N), beside a Node floor that pages the same list with fetch and discards it.
 * The rows come from a stand-in service in a child process (pages of up to 1000 synthetic rows in mixed states), so
 * the figure is svc's own cost. Run: npm run build && node bench/work-stats.mjs   (N=10000)
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { peakRss } from './lib/measure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (process.argv[2] === 'serve') {
  // The stand-in: GET /v1/environments/env_bench/work?page_size&page_token over `total` rows; /_requests counts.
  let total = 0;
  let requests = 0;
  const states = ['queued', 'queued', 'active', 'starting', 'completed', 'completed', 'completed', 'cancelled'];
  const row = (i) => ({
    id: `work_${i}`,
    session_id: `sesn_${i}`,
    environment_id: 'env_bench',
    status: states[i % states.length],
    generation: 1,
    lease_ttl_ms: 30000,
    worker_id: i % 8 === 2 ? 'w-1' : undefined,
    created_at: new Date(Date.now() - i * 1000).toISOString(),
    acknowledged_at: i % 8 === 2 ? new Date(Date.now() - (i % 3) * 60_000).toISOString() : undefined,
  });
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/_requests') return res.end(JSON.stringify({ requests }));
    if (url.pathname === '/_rows') {
      total = Number(url.searchParams.get('n'));
      requests = 0;
      return res.end('{}');
    }
    requests++;
    const size = Math.min(1000, Number(url.searchParams.get('page_size') ?? 100));
    const from = Number(url.searchParams.get('page_token') ?? 0);
    const items = [];
    for (let i = from; i < Math.min(total, from + size); i++) items.push(row(i));
    const next = from + size < total ? String(from + size) : null;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items, next_page_token: next }));
  });
  // The bench blocks in spawnSync between its own requests: keep its connection open meanwhile.
  server.keepAliveTimeout = 600_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
} else {
  const N = Number(process.env.N ?? 10_000);
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((r) => child.stdout.once('data', (d) => r(Number(String(d).trim()))));
  const base = `http://127.0.0.1:${port}`;
  const floor = join(tmpdir(), `work-stats-floor-${process.pid}.mjs`);
  writeFileSync(
    floor,
    `let token, n = 0;
do {
  const page = await (await fetch('${base}/v1/environments/env_bench/work?page_size=1000' + (token ? '&page_token=' + token : ''))).json();
  n += page.items.length;
  token = page.next_page_token;
} while (token);
process.stdout.write(n + '\\n');
`,
  );
  const env = { PATH: process.env.PATH, SVC_BASE_URL: base, SVC_API_KEY: 'sk_bench', SVC_CONFIG_DIR: join(tmpdir(), `work-stats-bench-${process.pid}`) };
  console.log('svc work stats: requests and peak RSS over N rows (pages of 1000)');
  for (const n of [N, 10 * N]) {
    await fetch(`${base}/_rows?n=${n}`);
    const svc = peakRss(process.execPath, [join(root, 'bin', 'svc.js'), 'work', 'stats', 'env_bench', '-o', 'json'], env);
    const { requests } = await (await fetch(`${base}/_requests`)).json();
    const f = peakRss(process.execPath, [floor], env);
    console.log(
      `  ${String(n).padStart(7)} rows: ${requests} requests (${Math.ceil(n / 1000)} pages), svc ${svc.mib.toFixed(1)} MiB in ${Math.round(svc.ms)} ms; ` +
        `floor (fetch paging) ${f.mib.toFixed(1)} MiB in ${Math.round(f.ms)} ms`,
    );
  }
  child.kill();
}
