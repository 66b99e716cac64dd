/**
 * `svc sessions trace` of one session of E events (default 200,000: turns of a model request, a streamed reply and a
 * tool call) against bench/history-floor.mjs (the same history paged by a bare Node script that does nothing with
 * it), as paired runs in this one process: piped (the tree as text) and -o otlp; then the peak RSS at 2,000 and at
 * E events, and at E under a 16 MiB old generation (a history held whole would not fit: finishing proves the fold
 * lets the events go). Run: node bench/trace.mjs   (E=200000 ROUNDS=3)
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fleet } from './lib/fleet.mjs';
import { history } from './lib/history.mjs';
import { paired, peakRss, timeRun } from './lib/measure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const E = Number(process.env.E ?? 200_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CHUNK = 5000;
const node = process.execPath;

const f = await fleet(root, 'trace-bench');
try {
  const seeded = async (n) => {
    const [id] = await f.sessions(1, { run: `trace-${n}` }, 1);
    const events = history(n);
    for (let i = 0; i < events.length; i += CHUNK) await f.api('POST', `/_emulator/sessions/${id}/history`, { items: events.slice(i, i + CHUNK) });
    return id;
  };
  const large = await seeded(E);
  const small = await seeded(2000);
  const floorRun = () => timeRun(node, [join(root, 'bench', 'history-floor.mjs'), f.emuEnv.SVC_BASE_URL, f.emuEnv.SVC_API_KEY, large], f.env);
  const tree = await paired(ROUNDS, floorRun, () => timeRun(node, [f.svcBin, 'sessions', 'trace', large], f.env));
  const otlp = await paired(ROUNDS, floorRun, () => timeRun(node, [f.svcBin, 'sessions', 'trace', large, '-o', 'otlp'], f.env));
  const rss = (id, env = f.env) => peakRss(node, [f.svcBin, 'sessions', 'trace', id], env).mib;
  const capped = rss(large, { ...f.env, NODE_OPTIONS: '--max-old-space-size=16' });
  const floorRss = peakRss(node, [join(root, 'bench', 'history-floor.mjs'), f.emuEnv.SVC_BASE_URL, f.emuEnv.SVC_API_KEY, large], f.env).mib;

  console.log(`svc sessions trace of one session of ${E} events (median of ${ROUNDS} paired runs)`);
  console.log(`  floor (node, same pages)   ${tree.floorMs.toFixed(0)} ms`);
  console.log(`  trace, piped (tree)        ${tree.subjectMs.toFixed(0)} ms   trace / floor = ${tree.ratio.toFixed(2)}x (goal <= 2x)`);
  console.log(`  trace -o otlp              ${otlp.subjectMs.toFixed(0)} ms   trace / floor = ${otlp.ratio.toFixed(2)}x`);
  console.log(
    `  peak RSS                   ${rss(small).toFixed(0)} MiB at 2,000 events, ${rss(large).toFixed(0)} MiB at ${E} (${capped.toFixed(0)} MiB with a 16 MiB old generation; the floor ${floorRss.toFixed(0)} MiB)`,
  );
} finally {
  f.close();
}
