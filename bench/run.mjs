/**
 * `npm run bench`: the performance issue's suite. Starts the emulator (a child process, seeded through its admin
 * path), then prints each figure as the median of paired runs against a floor measured in the same run
 * (`node -e 0`, `curl -N`), with the goal beside it. Times are reported, never gated on.
 * Options: ROUNDS=N (default 11), SKIP_BIG=1 (skip the 1,000,000-event RSS run), NODE_VERSIONS=22,24 (npx node@V check).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paired, peakRss, ptyTime, timeRun } from './lib/measure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const svcBin = join(root, 'bin', 'svc.js');
const ROUNDS = Number(process.env.ROUNDS ?? 11);
const node = process.execPath;
const rows = [];

function row(name, figure, goal, met, note = '') {
  rows.push({ name, figure, goal, met: met === undefined ? '–' : met ? 'yes' : 'NO', note });
  process.stderr.write(`  ${name}: ${figure}${note ? ` (${note})` : ''}\n`);
}
const x = (r) => `${r.toFixed(2)}×`;
const ms = (v) => `${v.toFixed(0)} ms`;

if (!existsSync(join(root, 'dist', 'cli.js'))) {
  process.stderr.write('building dist/ first (npm run build)\n');
  const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}

/** The emulator as a child; its first two stdout lines are the exports EMULATOR.md promises. */
async function startEmulator() {
  const child = spawn(node, [svcBin, 'emulator', '--port', '0', '--api-key', 'sk_bench'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let text = '';
  const env = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      text += d;
      const url = /SVC_BASE_URL=(\S+)/.exec(text)?.[1];
      const key = /SVC_API_KEY=(\S+)/.exec(text)?.[1];
      if (url && key) resolve({ SVC_BASE_URL: url, SVC_API_KEY: key });
    });
    child.on('exit', (c) => reject(new Error(`emulator exited ${c}`)));
  });
  return { child, env };
}

const { child: emulator, env: emuEnv } = await startEmulator();
const configDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
// The user's environment, as they would run svc (NODE_EXTRA_CA_CERTS, for one, adds tens of ms to every node start).
const baseEnv = { ...process.env, SVC_CONFIG_DIR: configDir, ...emuEnv };
for (const k of Object.keys(baseEnv)) if (k.startsWith('SVC_') && !['SVC_CONFIG_DIR', 'SVC_BASE_URL', 'SVC_API_KEY'].includes(k)) delete baseEnv[k];
const api = async (method, path, body) => {
  const res = await fetch(emuEnv.SVC_BASE_URL + path, {
    method,
    headers: { authorization: `Bearer ${emuEnv.SVC_API_KEY}`, 'svc-api-version': '2026-09-01-beta', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
};
/** Seeds through the emulator's admin path (EMULATOR.md "benchmarks"): agents, or a session of N events ending idle. */
const seed = (body) => api('POST', '/_emulator/seed', body);
const setFaults = (body) => api('POST', '/_emulator/faults', body);

const svc = (...args) => () => timeRun(node, [svcBin, ...args], baseEnv);
const floor = () => timeRun(node, ['-e', '0'], baseEnv);

try {
  process.stderr.write(`node ${process.version}, ${ROUNDS} paired rounds per figure${process.env.NODE_EXTRA_CA_CERTS ? ', NODE_EXTRA_CA_CERTS set' : ''}\n`);
  const agent = await api('POST', '/v1/agents', { name: 'bench', model: 'scripted-1' });

  let r = await paired(ROUNDS, floor, svc('--version'));
  row('svc --version vs node -e 0', x(r.ratio), '≤ 1.25×', r.ratio <= 1.25, `${ms(r.subjectMs)} vs ${ms(r.floorMs)}`);
  r = await paired(ROUNDS, floor, svc('--help'));
  row('svc --help vs node -e 0', x(r.ratio), '≤ 1.35×', r.ratio <= 1.35, `${ms(r.subjectMs)} vs ${ms(r.floorMs)}`);
  r = await paired(ROUNDS, floor, svc('agents', 'get', agent.id, '-o', 'json'));
  row('svc agents get X -o json vs node -e 0', x(r.ratio), '≤ 1.8×', r.ratio <= 1.8, `${ms(r.subjectMs)} vs ${ms(r.floorMs)}`);

  // __complete: cold (no cache file) and warm (cache filled by the previous run).
  const completeArgs = ['__complete', '--', 'agents', 'get', ''];
  r = await paired(ROUNDS, floor, () => {
    rmSync(join(configDir, 'completion-cache.json'), { force: true });
    return timeRun(node, [svcBin, ...completeArgs], baseEnv);
  });
  row('svc __complete (cold) vs node -e 0', x(r.ratio), '< 300 ms', r.subjectMs < 300, `${ms(r.subjectMs)} vs ${ms(r.floorMs)}`);
  timeRun(node, [svcBin, ...completeArgs], baseEnv);
  r = await paired(ROUNDS, floor, svc(...completeArgs));
  row('svc __complete (warm) vs node -e 0', x(r.ratio), '< 300 ms', r.subjectMs < 300, `${ms(r.subjectMs)} vs ${ms(r.floorMs)}`);

  // Live view first frame: time until the header shows the session ID on a pseudo-terminal, vs node -e 0 under the same wrapper.
  const { session_id: liveSid } = await seed({ session_events: 10 });
  const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  const envLine = Object.entries(baseEnv).map(([k, v]) => `${k}=${q(v)}`).join(' ');
  r = await paired(
    ROUNDS,
    () => ptyTime(`env ${envLine} ${q(node)} -e 0`, baseEnv),
    () => ptyTime(`env ${envLine} ${q(node)} ${q(svcBin)} sessions tail ${liveSid}`, baseEnv, liveSid),
  );
  row('live view first frame vs node -e 0', x(r.ratio), '≤ 2.6×', r.ratio <= 2.6, `${ms(r.subjectMs)} vs ${ms(r.floorMs)}`);

  // Tail over 200,000 frames: svc's NDJSON path vs curl -N on the same stream (closed after the last frame by the drop fault).
  const FRAMES = 200_000;
  const { session_id: tailSid } = await seed({ session_events: FRAMES });
  const streamUrl = `${emuEnv.SVC_BASE_URL}/v1/sessions/${tailSid}/events/stream?cursor=0`;
  const curl = () => {
    return timeRun('curl', ['-sN', '-o', '/dev/null', '-H', `authorization: Bearer ${emuEnv.SVC_API_KEY}`, '-H', 'svc-api-version: 2026-09-01-beta', '-H', 'accept: text/event-stream', streamUrl], baseEnv);
  };
  const tail = () => timeRun(node, [svcBin, 'sessions', 'tail', tailSid, '--no-live', '-o', 'ndjson', '--cursor', '0', '--until', 'idle'], baseEnv);
  const tailRounds = Math.max(3, Math.ceil(ROUNDS / 2));
  r = await paired(tailRounds, async () => {
    await setFaults({ drop_stream_after: FRAMES });
    const t = curl();
    await setFaults({});
    return t;
  }, tail);
  row(`sessions tail --no-live -o ndjson, ${FRAMES / 1000}k frames vs curl -N`, x(r.ratio), '≤ 12×', r.ratio <= 12, `${ms(r.subjectMs)} vs ${ms(r.floorMs)}`);

  if (!process.env.SKIP_BIG) {
    const BIG = 1_000_000;
    const { session_id: bigSid } = await seed({ session_events: BIG });
    const m = peakRss(node, [svcBin, 'sessions', 'tail', bigSid, '--no-live', '-o', 'ndjson', '--cursor', '0', '--until', 'idle'], baseEnv);
    row('peak RSS, tail of 1,000,000 events', `${m.mib.toFixed(0)} MiB`, '≤ 120 MiB', m.mib <= 120, ms(m.ms));
  }

  // list --all over 100,000 items: time, and peak RSS at 10k, 50k and 100k. The first pages grow the heap to its
  // working size; flat means the second 50k items add little (100k within 15 % of 50k).
  await seed({ agents: 100_000 });
  const list = (limit) => peakRss(node, [svcBin, 'agents', 'list', '--all', '--page-size', '1000', '-o', 'ndjson', ...(limit ? ['--limit', String(limit)] : [])], baseEnv);
  const [at10k, at50k, at100k] = [list(10_000), list(50_000), list(undefined)];
  row(
    'agents list --all -o ndjson, 100k items',
    ms(at100k.ms),
    'memory flat',
    at100k.mib <= at50k.mib * 1.15,
    `peak RSS ${at10k.mib.toFixed(0)} / ${at50k.mib.toFixed(0)} / ${at100k.mib.toFixed(0)} MiB at 10k / 50k / 100k`,
  );

  for (const v of (process.env.NODE_VERSIONS ?? '').split(',').filter(Boolean)) {
    const res = spawnSync('npx', ['-y', `node@${v}`, svcBin, '--version'], { env: { ...process.env, ...baseEnv }, encoding: 'utf8' });
    row(`node@${v} svc --version`, res.status === 0 ? res.stdout.trim() : `exit ${res.status}`, 'runs', res.status === 0);
  }
} finally {
  emulator.kill();
  rmSync(configDir, { recursive: true, force: true });
}

const cols = ['name', 'figure', 'goal', 'met', 'note'];
const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
const line = (r) => cols.map((c, i) => String(r[c]).padEnd(width[i])).join('  ').trimEnd();
process.stdout.write([line(Object.fromEntries(cols.map((c) => [c, c]))), ...rows.map(line)].join('\n') + '\n');
