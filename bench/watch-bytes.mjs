/**
 * `sessions list --watch` over N sessions with one change a second: bytes the service sends per poll (through a
 * counting proxy), the full list's bytes for comparison, and the time from a change to its MODIFIED line.
 * Run: node bench/watch-bytes.mjs   (N=10000 CHANGES=10)
 */
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib/measure.mjs';
import { fleet } from './lib/fleet.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.N ?? 10_000);
const CHANGES = Number(process.env.CHANGES ?? 10);
const f = await fleet(root, 'watch-bench');
const polls = [];
const target = new URL(f.emuEnv.SVC_BASE_URL);
const proxy = createServer((req, res) => {
  const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
    let bytes = 0;
    res.writeHead(r.statusCode, r.headers);
    r.on('data', (d) => ((bytes += d.length), res.write(d)));
    r.on('end', () => {
      polls.push({ url: req.url, bytes });
      res.end();
    });
  });
  req.pipe(up);
});
await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
const env = { ...f.env, SVC_BASE_URL: `http://127.0.0.1:${proxy.address().port}` };
try {
  const ids = await f.sessions(N, { run: 'watch' }, 8);
  const child = spawn(process.execPath, [f.svcBin, 'sessions', 'list', '-w', '--interval', '1s', '-o', 'ndjson'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const seen = new Map();
  child.stdout.on('data', (d) => {
    out += d;
    let i;
    while ((i = out.indexOf('\n')) >= 0) {
      const e = JSON.parse(out.slice(0, i));
      out = out.slice(i + 1);
      if (e.type === 'MODIFIED') seen.set(e.object.title, Date.now());
    }
  });
  const until = async (check) => {
    while (!check()) await new Promise((r) => setTimeout(r, 20));
  };
  await until(() => polls.some((p) => p.url.includes('updated_at_gt')));
  const latencies = [];
  for (let i = 0; i < CHANGES; i++) {
    const title = `change-${i}`;
    const t0 = Date.now();
    await f.api('PATCH', `/v1/sessions/${ids[i % ids.length]}`, { title });
    await until(() => seen.has(title));
    latencies.push(seen.get(title) - t0);
    // About one a second, at a random phase to the polls (a change made just after a poll is the worst case).
    await new Promise((r) => setTimeout(r, 500 + Math.random() * 1000));
  }
  // Then a quiet fleet: the polls of three intervals with no change.
  const quietFrom = polls.length;
  await new Promise((r) => setTimeout(r, 3500));
  const quiet = polls
    .slice(quietFrom)
    .filter((p) => p.url.includes('updated_at_gt'))
    .map((p) => p.bytes);
  child.kill('SIGINT');
  const full = polls.filter((p) => !p.url.includes('updated_at_gt')).reduce((a, p) => a + p.bytes, 0);
  const incremental = polls
    .slice(0, quietFrom)
    .filter((p) => p.url.includes('updated_at_gt'))
    .map((p) => p.bytes);
  console.log(`sessions list --watch over ${N} sessions, ${CHANGES} changes one a second, --interval 1s`);
  console.log(
    `  initial list: ${full} bytes; incremental polls: ${incremental.length}, median ${median(incremental)} bytes, max ${Math.max(...incremental)} bytes`,
  );
  console.log(`  quiet polls: ${quiet.length}, ${quiet.join(', ')} bytes each`);
  console.log(`  change to MODIFIED line: median ${median(latencies)} ms, max ${Math.max(...latencies)} ms (goal: within one interval, 1000 ms)`);
  console.log(`  full list / median poll = ${(full / median(incremental)).toFixed(0)}x`);
} finally {
  proxy.close();
  f.close();
}
