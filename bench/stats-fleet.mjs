/**
 * `svc stats` over N sessions of E events each (defaults 1000 and 200), against bench/stats-floor.mjs (the same
 * histories paged with the same concurrency by a bare Node script), as paired runs in this one process: the cold run
 * (an empty cache) over the floor, then the warm run (requests counted: the list pages only), then the peak RSS of
 * `svc sessions stats` on one session of 2,000 and of 200,000 events (flat in the number of events).
 * Run: node bench/stats-fleet.mjs   (N=1000 E=200 ROUNDS=3 CONCURRENCY=8)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fleet } from './lib/fleet.mjs';
import { history, seedHistories } from './lib/history.mjs';
import { paired, peakRss, timeRun } from './lib/measure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.N ?? 1000);
const E = Number(process.env.E ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONCURRENCY = String(process.env.CONCURRENCY ?? 8);
const node = process.execPath;

const f = await fleet(root, 'stats-bench');
try {
  const ids = await f.sessions(N, { run: 'stats' }, 8);
  await seedHistories(f, ids, history(E));
  const stats = ['stats', '-l', 'run=stats', '--concurrency', CONCURRENCY, '-o', 'json'];
  const floorRun = () => timeRun(node, [join(root, 'bench', 'stats-floor.mjs'), f.emuEnv.SVC_BASE_URL, f.emuEnv.SVC_API_KEY, 'stats', CONCURRENCY], f.env);
  const coldRun = () => {
    const cache = mkdtempSync(join(tmpdir(), 'svc-stats-bench-'));
    try {
      return timeRun(node, [f.svcBin, ...stats], { ...f.env, XDG_CACHE_HOME: cache });
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  };
  const cold = await paired(ROUNDS, floorRun, coldRun);
  const cache = mkdtempSync(join(tmpdir(), 'svc-stats-bench-'));
  const warmEnv = { ...f.env, XDG_CACHE_HOME: cache };
  timeRun(node, [f.svcBin, ...stats], warmEnv);
  const requests = async () => (await f.api('GET', '/_emulator/stats')).requests;
  const before = await requests();
  const warmMs = timeRun(node, [f.svcBin, ...stats], warmEnv);
  const warmRequests = (await requests()) - before;
  rmSync(cache, { recursive: true, force: true });

  const small = (await f.api('POST', '/_emulator/seed', { session_events: 2000 })).session_id;
  const large = (await f.api('POST', '/_emulator/seed', { session_events: 200_000 })).session_id;
  const rss = (id, env = f.env) => peakRss(node, [f.svcBin, 'sessions', 'stats', id, '--no-cache', '-o', 'json'], env).mib;
  // Under a 16 MiB old generation a history held whole would not fit: finishing proves the events are let go.
  const capped = rss(large, { ...f.env, NODE_OPTIONS: '--max-old-space-size=16' });

  console.log(`svc stats over ${N} sessions of ${E} events, ${CONCURRENCY} histories in flight (median of ${ROUNDS} paired runs)`);
  console.log(`  floor (node, same pages)   ${cold.floorMs.toFixed(0)} ms`);
  console.log(`  svc stats, empty cache     ${cold.subjectMs.toFixed(0)} ms   svc / floor = ${cold.ratio.toFixed(2)}x (goal <= 2x)`);
  console.log(`  svc stats, warm cache      ${warmMs.toFixed(0)} ms   ${warmRequests} requests (goal: the list pages only, ${Math.ceil(N / 1000)} here)`);
  console.log(
    `  sessions stats peak RSS    ${rss(small).toFixed(0)} MiB at 2,000 events, ${rss(large).toFixed(0)} MiB at 200,000 events (${capped.toFixed(0)} MiB with a 16 MiB old generation)`,
  );
} finally {
  f.close();
}
