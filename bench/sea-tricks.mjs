/**
 * What each start-up trick earns on the single executable (scripts/build/PERF.md's 3 % bar): the executable built as
 * shipped and once without each trick (scripts/sea.mjs `without`), `agents get ID -o json` from each timed
 * interleaved beside the 5-line `node:http` GET on the executable's own Node. CPU is `perf stat`'s task-clock (the
 * work, far steadier than wall time on a shared machine), with page faults; each figure the median of its runs, each
 * ratio the median of per-round ratios to the executable as shipped. Every binary is a copy written in one write.
 * `ONLY=conf-crypto,undici-h2` (default: every stand-in of scripts/bundle.mjs), `ROUNDS=21`. Not in CI.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib/measure.mjs';
import { buildSea, hostTarget, nodeBinary } from '../scripts/sea.mjs';
import { scriptedAgent, startEmulator } from './lib/emulator-process.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.ROUNDS ?? 21);
const tricks = (process.env.ONLY ?? 'conf-crypto,undici-h2,stubborn-fs-promisify,conf-semver,conf-ajv,string-width,builtin-namespaces').split(',');
const work = join(root, 'node_modules', '.cache', `sea-tricks-${process.pid}`);
const home = mkdtempSync(join(tmpdir(), 'svc-sea-tricks-'));

/** A copy of `file` written in one write (bench/sea.mjs, heldAlike). */
function heldAlike(file, name) {
  writeFileSync(join(work, name), readFileSync(file), { mode: 0o755 });
  return join(work, name);
}

/** Wall, CPU (task-clock) and page faults of one run, through `perf stat`. */
function run(cmd, args, env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock,page-faults', cmd, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = /^([\d.]+),msec,task-clock/m.exec(String(r.stderr));
  if (r.status !== 0 || !cpu) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(-300)}`);
  return { wall, cpu: Number(cpu[1]), faults: Number(/^(\d+),,page-faults/m.exec(String(r.stderr))?.[1] ?? 0) };
}

const exes = { shipped: heldAlike(await buildSea({ out: join(work, 'shipped') }), 'svc') };
for (const trick of tricks) {
  process.stderr.write(`building the executable without ${trick}\n`);
  exes[`without ${trick}`] = heldAlike(await buildSea({ out: join(work, trick), without: [trick] }), `svc-${trick}`);
}
const emulator = startEmulator(exes.shipped, [], 'sk_bench', { PATH: process.env.PATH, HOME: home });
try {
  const url = await emulator.url;
  const agent = await scriptedAgent(url, 'sk_bench', 'bench');
  const env = { PATH: process.env.PATH, HOME: home, SVC_BASE_URL: url, SVC_API_KEY: 'sk_bench', SVC_CONFIG_DIR: join(home, 'config') };
  const subjects = Object.fromEntries(Object.entries(exes).map(([name, exe]) => [name, [exe, ['agents', 'get', agent.id, '-o', 'json']]]));
  subjects['node:http GET'] = [heldAlike(nodeBinary(hostTarget()), 'node'), [join(root, 'bench', 'floor-get.cjs'), `${url}/v1/agents/${agent.id}`, 'sk_bench']];
  const names = Object.keys(subjects);
  const runs = Object.fromEntries(names.map((n) => [n, []]));
  const load = loadavg()[0];
  for (const n of names) run(...subjects[n], env);
  for (let i = 0; i < ROUNDS; i++)
    for (let j = 0; j < names.length; j++) runs[names[(i + j) % names.length]].push(run(...subjects[names[(i + j) % names.length]], env));
  const med = (n, k) => median(runs[n].map((r) => r[k]));
  const ratio = (n, k) => median(runs[n].map((r, i) => r[k] / runs.shipped[i][k]));
  process.stdout.write(`agents get -o json, ${ROUNDS} interleaved rounds, load average ${load.toFixed(1)} to ${loadavg()[0].toFixed(1)}\n`);
  for (const n of names) {
    const line = `${med(n, 'wall').toFixed(1)} ms wall, ${med(n, 'cpu').toFixed(1)} ms CPU, ${med(n, 'faults')} faults; ${ratio(n, 'wall').toFixed(3)}× wall, ${ratio(n, 'cpu').toFixed(3)}× CPU the shipped`;
    process.stdout.write(`${n.padEnd(36)} ${line}\n`);
  }
} finally {
  emulator.child.kill();
  rmSync(work, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
}
