/**
 * `node bench/tricks.mjs`: what each start-up trick of the build saves (scripts/build/PERF.md). svc is built once as
 * shipped and once without each build-time trick (bundle.mjs's `without`); the run-time ones are switched off in a
 * copy of the launcher (a V8 flag left out) or by Node's own switch (NODE_DISABLE_COMPILE_CACHE). Each subject is
 * timed as the median of paired runs against `node -e 0` in the same process (bench/lib/measure.mjs); the saving is
 * the difference of the two ratios times the floor's median. On a shared machine wall time swings by far more than
 * a trick saves, so each run's CPU time (perf's task-clock) is paired the same way and reported beside it: the work a
 * trick saves, which on an idle machine is its wall time. ROUNDS=N (default 21), ONLY=name,name. Node 22, as the
 * rule of scripts/build/PERF.md reads: `npx -y node@22 bench/tricks.mjs`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPrivateSvc } from '../scripts/bundle.mjs';
import { median, peakRss } from './lib/measure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.ROUNDS ?? 21);
const only = process.env.ONLY?.split(',');
const node = process.execPath;
const work = join(root, 'node_modules', '.cache', `tricks-${process.pid}`);

/**
 * Wall and CPU time (ms) of one run: CPU as `perf stat`'s task-clock (every thread, to the microsecond) where perf is
 * installed, else GNU time's user + system (10 ms steps, too coarse for a few ms).
 */
const perf = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', 'true'], { stdio: 'ignore' }).status === 0;
function run(args, env) {
  const t0 = process.hrtime.bigint();
  const [cmd, pre] = perf ? ['perf', ['stat', '-x,', '-e', 'task-clock']] : ['/usr/bin/time', ['-f', '__T=%U %S']];
  const r = spawnSync(cmd, [...pre, node, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const m = perf ? /^([\d.]+),msec,task-clock/m.exec(String(r.stderr)) : /__T=([\d.]+) ([\d.]+)/.exec(String(r.stderr));
  if (r.status !== 0 || !m) throw new Error(`${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(-300)}`);
  return { wall, cpu: perf ? Number(m[1]) : (Number(m[1]) + Number(m[2])) * 1000 };
}

/** Paired medians of `subject` against `node -e 0`, by wall and by CPU time. */
async function pairedBoth(rounds, args, env) {
  const runs = [];
  for (let i = 0; i < rounds; i++) {
    const pair = i % 2 ? [run(args, env), run(['-e', '0'], env)].reverse() : [run(['-e', '0'], env), run(args, env)];
    runs.push(pair);
  }
  const of = (k) => ({
    ratio: median(runs.map(([f, s]) => s[k] / f[k])),
    floor: median(runs.map(([f]) => f[k])),
  });
  return { wall: of('wall'), cpu: of('cpu') };
}

/** A launcher that leaves `flag` out of svc's V8 flags, beside the shipped one (so ../dist resolves). */
function withoutFlag(bin, flag) {
  const copy = join(dirname(bin), `svc-without${flag.replace(/-/g, '_')}.js`);
  const guard = `{ const v8 = require('node:v8'); const set = v8.setFlagsFromString; v8.setFlagsFromString = (f) => (f === '${flag}' ? undefined : set(f)); }\n`;
  writeFileSync(copy, readFileSync(bin, 'utf8').replace("'use strict';\n", `'use strict';\n${guard}`));
  return copy;
}

const shipped = await buildPrivateSvc(join(work, 'shipped'));
const cache = mkdtempSync(join(tmpdir(), 'svc-tricks-cache-'));
const env = { PATH: process.env.PATH, SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-tricks-')), XDG_CACHE_HOME: cache };
const emulator = spawn(node, [shipped, 'emulator', '--port', '0', '--api-key', 'sk_tricks'], { stdio: ['ignore', 'pipe', 'ignore'] });
const baseUrl = await new Promise((resolve) => {
  let text = '';
  emulator.stdout.on('data', (d) => {
    text += d;
    const m = /SVC_BASE_URL=(\S+)/.exec(text);
    if (m) resolve(m[1]);
  });
});
const reqEnv = { ...env, SVC_BASE_URL: baseUrl, SVC_API_KEY: 'sk_tricks' };
const api = (method, path, body) =>
  fetch(baseUrl + path, {
    method,
    headers: { authorization: 'Bearer sk_tricks', 'svc-api-version': '2026-09-01-beta', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json());
const agent = await api('POST', '/v1/agents', { name: 'tricks', model: 'scripted-1' });
const get = (bin) => [bin, 'agents', 'get', agent.id, '-o', 'json'];
const help = (bin) => [bin, '--help'];

async function saving(name, what, withArgs, withoutArgs, withEnv = reqEnv, withoutEnv = reqEnv) {
  if (only && !only.includes(name)) return;
  run(withArgs, withEnv);
  run(withoutArgs, withoutEnv);
  const a = await pairedBoth(ROUNDS, withArgs, withEnv);
  const b = await pairedBoth(ROUNDS, withoutArgs, withoutEnv);
  const ms = (k) => (b[k].ratio - a[k].ratio) * median([a[k].floor, b[k].floor]);
  const r = (k) => `${a[k].ratio.toFixed(2)}× with, ${b[k].ratio.toFixed(2)}× without, floor ${median([a[k].floor, b[k].floor]).toFixed(0)} ms`;
  process.stdout.write(
    `${name.padEnd(24)} ${what.padEnd(20)} saves ${ms('cpu').toFixed(1).padStart(5)} ms CPU (${r('cpu')}); ${ms('wall').toFixed(1)} ms wall (${r('wall')})\n`,
  );
}

try {
  process.stdout.write(
    `node ${process.version}, ${ROUNDS} paired rounds against node -e 0, load average ${(await import('node:os')).loadavg()[0].toFixed(1)}\n`,
  );
  for (const trick of ['linked-core', 'conf-crypto', 'undici-h2', 'conf-semver', 'conf-ajv', 'stubborn-fs-promisify', 'string-width', 'builtin-namespaces']) {
    if (only && !only.includes(trick)) continue;
    const bin = await buildPrivateSvc(join(work, trick), [trick]);
    await saving(trick, 'agents get -o json', get(shipped), get(bin));
    // The linked core holds the command tree too: a command that makes no request reads it whole.
    if (trick === 'linked-core') await saving(trick, '--help', help(shipped), help(bin), env, env);
  }
  const off = { ...reqEnv, NODE_DISABLE_COMPILE_CACHE: '1' };
  await saving('compile-cache', 'agents get -o json', get(shipped), get(shipped), reqEnv, off);
  await saving('compile-cache', '--help', help(shipped), help(shipped), env, { ...env, NODE_DISABLE_COMPILE_CACHE: '1' });
  await saving('liftoff-only', 'agents get -o json', get(shipped), get(withoutFlag(shipped, '--liftoff-only')));
  if (!only || only.includes('relief')) {
    // --expose-gc is what young-gc.ts needs: without it, no collections are forced. Peak RSS of a long tail.
    const { session_id: sid } = await api('POST', '/_emulator/seed', { session_events: 200_000 });
    const tail = (bin) => [bin, 'sessions', 'tail', sid, '--no-live', '-o', 'ndjson', '--cursor', '0', '--until', 'idle'];
    const bare = withoutFlag(shipped, '--expose-gc');
    const peaks = { with: [], without: [] };
    for (let i = 0; i < Math.max(3, Math.ceil(ROUNDS / 4)); i++) {
      peaks.with.push(peakRss(node, tail(shipped), reqEnv));
      peaks.without.push(peakRss(node, tail(bare), reqEnv));
    }
    const m = (xs, k) => median(xs.map((x) => x[k]));
    process.stdout.write(
      `relief (--expose-gc)     tail 200k events       peak RSS ${m(peaks.with, 'mib').toFixed(0)} MiB with, ${m(peaks.without, 'mib').toFixed(0)} MiB without; ${m(peaks.with, 'ms').toFixed(0)} vs ${m(peaks.without, 'ms').toFixed(0)} ms\n`,
    );
  }
} finally {
  emulator.kill();
  rmSync(work, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
}
