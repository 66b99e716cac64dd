/**
 * Bulk archive of N idle sessions: `svc sessions archive -l run=X --yes` against the xargs loop
 * (`svc sessions list -q | xargs -n1 svc sessions archive`) and against bench/bulk-floor.mjs (8 in flight).
 * Run: node bench/bulk-archive.mjs   (N=600; XARGS_N=N sessions for the loop, fewer to sample it: its time per
 * session is then scaled to N and marked "scaled")
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timeRun } from './lib/measure.mjs';
import { fleet } from './lib/fleet.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.N ?? 600);
const XARGS_N = Number(process.env.XARGS_N ?? N);
const node = process.execPath;
const f = await fleet(root, 'bulk-bench');
try {
  await f.sessions(N, { run: 'svc' });
  await f.sessions(N, { run: 'floor' });
  await f.sessions(XARGS_N, { run: 'xargs' });
  const svcMs = timeRun(node, [f.svcBin, 'sessions', 'archive', '-l', 'run=svc', '--yes', '-o', 'ndjson'], f.env);
  const floorMs = timeRun(node, [join(root, 'bench', 'bulk-floor.mjs'), f.emuEnv.SVC_BASE_URL, f.emuEnv.SVC_API_KEY, 'floor'], f.env);
  const loop = `node ${f.svcBin} sessions list -l run=xargs --all -q | xargs -n1 node ${f.svcBin} sessions archive > /dev/null`;
  const t0 = process.hrtime.bigint();
  const r = spawnSync('sh', ['-c', loop], { env: f.env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`xargs loop exited ${r.status}: ${String(r.stderr).slice(0, 300)}`);
  const xargsMs = (Number(process.hrtime.bigint() - t0) / 1e6) * (N / XARGS_N);
  const left = await f.api('GET', '/v1/sessions?page_size=1');
  if (left.items.length) throw new Error('sessions were left unarchived');
  const scaled = XARGS_N === N ? '' : ` (scaled from ${XARGS_N})`;
  console.log(`bulk archive of ${N} idle sessions`);
  console.log(`  svc sessions archive -l … --yes   ${svcMs.toFixed(0)} ms`);
  console.log(`  floor (node, 8 in flight)         ${floorMs.toFixed(0)} ms`);
  console.log(`  xargs -n1 svc sessions archive    ${xargsMs.toFixed(0)} ms${scaled}`);
  console.log(`  xargs / svc = ${(xargsMs / svcMs).toFixed(1)}x (goal >= 10x)   svc / floor = ${(svcMs / floorMs).toFixed(2)}x (goal <= 2x)`);
} finally {
  f.close();
}
