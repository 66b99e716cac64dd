/**
 * `svc sessions grep` over N sessions of E events each (defaults 1000 and 200), against bench/stats-floor.mjs (the
 * same histories paged with the same concurrency by a bare Node script), as paired runs in this one process: the
 * cold run (an empty cache) over the floor, with a fixed string and with -E; then the warm run (requests counted:
 * the list pages only, every history's text from the cache). Run: node bench/grep.mjs   (N=1000 E=200 ROUNDS=3 CONCURRENCY=8)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fleet } from './lib/fleet.mjs';
import { history, seedHistories } from './lib/history.mjs';
import { paired, timeRun } from './lib/measure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.N ?? 1000);
const E = Number(process.env.E ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONCURRENCY = String(process.env.CONCURRENCY ?? 8);
const node = process.execPath;

const f = await fleet(root, 'grep-bench');
try {
  const ids = await f.sessions(N, { run: 'grep' }, 8);
  await seedHistories(f, ids, history(E));
  const grep = (pattern, ...more) => ['sessions', 'grep', pattern, ...more, '--selector', 'run=grep', '--concurrency', CONCURRENCY, '-o', 'ndjson'];
  const floorRun = () => timeRun(node, [join(root, 'bench', 'stats-floor.mjs'), f.emuEnv.SVC_BASE_URL, f.emuEnv.SVC_API_KEY, 'grep', CONCURRENCY], f.env);
  const coldRun = (args) => () => {
    const cache = mkdtempSync(join(tmpdir(), 'svc-grep-bench-'));
    try {
      return timeRun(node, [f.svcBin, ...args], { ...f.env, XDG_CACHE_HOME: cache });
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  };
  // A word of one tool result in eight: few matches, every line looked at.
  const fixed = await paired(ROUNDS, floorRun, coldRun(grep('a line of output')));
  const regex = await paired(ROUNDS, floorRun, coldRun(grep('few \\w+s', '-E')));
  const cache = mkdtempSync(join(tmpdir(), 'svc-grep-bench-'));
  const warmEnv = { ...f.env, XDG_CACHE_HOME: cache };
  timeRun(node, [f.svcBin, ...grep('output')], warmEnv);
  const requests = async () => (await f.api('GET', '/_emulator/stats')).requests;
  const before = await requests();
  const warmMs = timeRun(node, [f.svcBin, ...grep('reply')], warmEnv);
  const warmRequests = (await requests()) - before;
  rmSync(cache, { recursive: true, force: true });

  console.log(`svc sessions grep over ${N} sessions of ${E} events, ${CONCURRENCY} histories in flight (median of ${ROUNDS} paired runs)`);
  console.log(`  floor (node, same pages)   ${fixed.floorMs.toFixed(0)} ms`);
  console.log(`  grep, empty cache          ${fixed.subjectMs.toFixed(0)} ms   grep / floor = ${fixed.ratio.toFixed(2)}x (goal <= 2x)`);
  console.log(`  grep -E, empty cache       ${regex.subjectMs.toFixed(0)} ms   grep / floor = ${regex.ratio.toFixed(2)}x`);
  console.log(`  grep, warm cache           ${warmMs.toFixed(0)} ms   ${warmRequests} requests (goal: the list pages only, ${Math.ceil(N / 1000)} here)`);
} finally {
  f.close();
}
