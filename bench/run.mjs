/**
 * `npm run bench`: the performance issue's suite. Starts the emulator (a child process, seeded through its admin
 * path), then prints each figure as the median of paired runs against a floor measured in the same run
 * (`node -e 0`, `curl -N`), with the goal beside it. Times are reported, never gated on.
 * The tail is measured twice: against bench/firehose.mjs (pre-rendered frames at socket speed, so svc's own cost
 * shows), beside `curl -N` and Node's own floors (bench/floor-*.mjs) in one interleaved run; and end-to-end against
 * the emulator, whose own frame building dominates there.
 * Options: ROUNDS=N (default 11), SKIP_BIG=1 (skip the 1,000,000-event runs), NODE_VERSIONS=22,24 (npx node@V check),
 * ONLY=firehose (the firehose figures alone), ONLY=startup (the start-up figures alone).
 * svc's compiled-code cache (src/startup/) lives in a folder of the bench's own: warmed by one run, then measured,
 * and measured once more switched off, as a first run after an install or an upgrade sees it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleaved, paired, peakRss, ptyTime, timeRun } from './lib/measure.mjs';
import { emulatorApi } from './lib/api.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const svcBin = join(root, 'bin', 'svc.js');
const ROUNDS = Number(process.env.ROUNDS ?? 11);
const node = process.execPath;
const rows = [];
/** Ends the run early (ONLY=…), still printing the table. */
class Done extends Error {}

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

/** A server as a child (the bench's own loop is blocked while it times a run); its stdout names SVC_BASE_URL and SVC_API_KEY. */
async function startServer(args) {
  const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let text = '';
  const env = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      text += d;
      const url = /SVC_BASE_URL=(\S+)/.exec(text)?.[1];
      const key = /SVC_API_KEY=(\S+)/.exec(text)?.[1];
      if (url && key) resolve({ SVC_BASE_URL: url, SVC_API_KEY: key });
    });
    child.on('exit', (c) => reject(new Error(`${args.join(' ')} exited ${c}`)));
  });
  return { child, env };
}

const configDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const cacheDir = mkdtempSync(join(tmpdir(), 'svc-bench-cache-'));
// The user's environment, as they would run svc (NODE_EXTRA_CA_CERTS, for one, adds tens of ms to every node start).
const userEnv = { ...process.env, SVC_CONFIG_DIR: configDir, XDG_CACHE_HOME: cacheDir };
delete userEnv.NODE_DISABLE_COMPILE_CACHE;
for (const k of Object.keys(userEnv)) if (k.startsWith('SVC_') && k !== 'SVC_CONFIG_DIR') delete userEnv[k];

/**
 * svc's tail beside curl -N and the two Node floors, on the firehose: one interleaved run per size, ratios paired
 * per round. Every reader stops at the final idle status; output goes to /dev/null.
 */
async function firehose(events, rounds) {
  const { child, env } = await startServer([join(root, 'bench', 'firehose.mjs'), String(events)]);
  try {
    const e = { ...userEnv, ...env };
    const url = `${env.SVC_BASE_URL}/v1/sessions/sesn_firehose/events/stream?cursor=0`;
    const auth = `authorization: Bearer ${env.SVC_API_KEY}`;
    const r = interleaved(rounds, {
      curl: { cmd: 'curl', args: ['-sN', '-o', '/dev/null', '-H', auth, '-H', 'accept: text/event-stream', url], env: e },
      floor: { cmd: node, args: [join(root, 'bench', 'floor-passthrough.mjs'), url, env.SVC_API_KEY], env: e },
      parse: { cmd: node, args: [join(root, 'bench', 'floor-parse.mjs'), url, env.SVC_API_KEY], env: e },
      svc: { cmd: node, args: [svcBin, 'sessions', 'tail', 'sesn_firehose', '--no-live', '-o', 'ndjson', '--cursor', '0', '--until', 'idle'], env: e },
    });
    const k = `${events / 1000}k`;
    const times = `svc ${ms(r.ms('svc'))}, curl ${ms(r.ms('curl'))}, floor ${ms(r.ms('floor'))}, floor+parse ${ms(r.ms('parse'))}`;
    row(`firehose ${k}: tail -o ndjson vs curl -N`, x(r.ratio('svc', 'curl')), '≤ 12×', r.ratio('svc', 'curl') <= 12, times);
    row(
      `firehose ${k}: tail vs Node pass-through floor`,
      x(r.ratio('svc', 'floor')),
      '≤ 1.3×',
      r.ratio('svc', 'floor') <= 1.3,
      `vs floor+parse ${x(r.ratio('svc', 'parse'))}`,
    );
    const rss = (n) => `${r.maxMib(n).toFixed(0)}`;
    row(
      `firehose ${k}: peak RSS (max of ${rounds})`,
      `${rss('svc')} MiB`,
      events >= 1e6 ? '≤ 80 MiB' : '–',
      events >= 1e6 ? r.maxMib('svc') <= 80 : undefined,
      `floor ${rss('floor')}, floor+parse ${rss('parse')}, curl ${rss('curl')} MiB`,
    );
  } finally {
    child.kill();
  }
}

const { child: emulator, env: emuEnv } = await startServer([svcBin, 'emulator', '--port', '0', '--api-key', 'sk_bench']);
const baseEnv = { ...userEnv, ...emuEnv };
const api = emulatorApi(emuEnv);
/** Seeds through the emulator's admin path (docs/behaviour.md "The emulator"): agents, or a session of N events ending idle. */
const seed = (body) => api('POST', '/_emulator/seed', body);
const setFaults = (body) => api('POST', '/_emulator/faults', body);

const svc =
  (...args) =>
  () =>
    timeRun(node, [svcBin, ...args], baseEnv);
const floor = () => timeRun(node, ['-e', '0'], baseEnv);

try {
  process.stderr.write(`node ${process.version}, ${ROUNDS} paired rounds per figure${process.env.NODE_EXTRA_CA_CERTS ? ', NODE_EXTRA_CA_CERTS set' : ''}\n`);
  if (process.env.ONLY !== 'startup') {
    await firehose(200_000, ROUNDS);
    if (!process.env.SKIP_BIG) await firehose(1_000_000, Math.max(3, Math.ceil(ROUNDS / 3)));
  }
  if (process.env.ONLY === 'firehose') throw new Done();
  const agent = await api('POST', '/v1/agents', { name: 'bench', model: 'scripted-1' });

  let r = await paired(ROUNDS, floor, svc('--version'));
  row('svc --version vs node -e 0', x(r.ratio), '≤ 1.25×', r.ratio <= 1.25, `${ms(r.subjectMs)} vs ${ms(r.floorMs)}`);
  r = await paired(ROUNDS, floor, svc('--help'));
  row('svc --help vs node -e 0', x(r.ratio), '≤ 1.35×', r.ratio <= 1.35, `${ms(r.subjectMs)} vs ${ms(r.floorMs)}`);
  svc('agents', 'get', agent.id, '-o', 'json')();
  r = await paired(ROUNDS, floor, svc('agents', 'get', agent.id, '-o', 'json'));
  row('svc agents get X -o json vs node -e 0', x(r.ratio), '≤ 1.8×', r.ratio <= 1.8, `${ms(r.subjectMs)} vs ${ms(r.floorMs)}`);
  const noCache = { ...baseEnv, NODE_DISABLE_COMPILE_CACHE: '1' };
  r = await paired(ROUNDS, floor, () => timeRun(node, [svcBin, 'agents', 'get', agent.id, '-o', 'json'], noCache));
  row('  the same without the compile cache', x(r.ratio), '–', undefined, `${ms(r.subjectMs)} vs ${ms(r.floorMs)}`);
  if (baseEnv.NODE_EXTRA_CA_CERTS) {
    // Node 20 reads the extra certificates at every start (~50 ms here), svc and floor alike: the ratios above shrink
    // by it. The same figures without it, for a machine that does not set it.
    const clean = { ...baseEnv };
    delete clean.NODE_EXTRA_CA_CERTS;
    const cleanFloor = () => timeRun(node, ['-e', '0'], clean);
    for (const args of [['--version'], ['--help'], ['agents', 'get', agent.id, '-o', 'json']]) {
      r = await paired(ROUNDS, cleanFloor, () => timeRun(node, [svcBin, ...args], clean));
      row(`  svc ${args[0]}${args.length > 1 ? ' …' : ''} without NODE_EXTRA_CA_CERTS`, x(r.ratio), '–', undefined, `${ms(r.subjectMs)} vs ${ms(r.floorMs)}`);
    }
  }

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
  const envLine = Object.entries(baseEnv)
    .map(([k, v]) => `${k}=${q(v)}`)
    .join(' ');
  r = await paired(
    ROUNDS,
    () => ptyTime(`env ${envLine} ${q(node)} -e 0`, baseEnv),
    () => ptyTime(`env ${envLine} ${q(node)} ${q(svcBin)} sessions tail ${liveSid}`, baseEnv, liveSid),
  );
  row('live view first frame vs node -e 0', x(r.ratio), '≤ 2.6×', r.ratio <= 2.6, `${ms(r.subjectMs)} vs ${ms(r.floorMs)}`);
  if (process.env.ONLY === 'startup') throw new Done();

  // Tail over 200,000 frames: svc's NDJSON path vs curl -N on the same stream (closed after the last frame by the drop fault).
  const FRAMES = 200_000;
  const { session_id: tailSid } = await seed({ session_events: FRAMES });
  const streamUrl = `${emuEnv.SVC_BASE_URL}/v1/sessions/${tailSid}/events/stream?cursor=0`;
  const curl = () => {
    return timeRun(
      'curl',
      [
        '-sN',
        '-o',
        '/dev/null',
        '-H',
        `authorization: Bearer ${emuEnv.SVC_API_KEY}`,
        '-H',
        'svc-api-version: 2026-09-01-beta',
        '-H',
        'accept: text/event-stream',
        streamUrl,
      ],
      baseEnv,
    );
  };
  const tail = () => timeRun(node, [svcBin, 'sessions', 'tail', tailSid, '--no-live', '-o', 'ndjson', '--cursor', '0', '--until', 'idle'], baseEnv);
  const tailRounds = Math.max(3, Math.ceil(ROUNDS / 2));
  r = await paired(
    tailRounds,
    async () => {
      await setFaults({ drop_stream_after: FRAMES });
      const t = curl();
      await setFaults({});
      return t;
    },
    tail,
  );
  row(
    `end-to-end (emulator) tail -o ndjson, ${FRAMES / 1000}k frames vs curl -N`,
    x(r.ratio),
    '≤ 12×',
    r.ratio <= 12,
    `${ms(r.subjectMs)} vs ${ms(r.floorMs)}`,
  );

  if (!process.env.SKIP_BIG) {
    const BIG = 1_000_000;
    const { session_id: bigSid } = await seed({ session_events: BIG });
    const m = peakRss(node, [svcBin, 'sessions', 'tail', bigSid, '--no-live', '-o', 'ndjson', '--cursor', '0', '--until', 'idle'], baseEnv);
    row('end-to-end (emulator) peak RSS, tail of 1M events', `${m.mib.toFixed(0)} MiB`, '≤ 80 MiB', m.mib <= 80, ms(m.ms));
  }

  // list --all over 100,000 items: time, and peak RSS at 10k, 50k and 100k. The first pages grow the heap to its
  // working size; flat means the second 50k items add little (100k within 15 % of 50k).
  await seed({ agents: 100_000 });
  const list = (limit) =>
    peakRss(node, [svcBin, 'agents', 'list', '--all', '--page-size', '1000', '-o', 'ndjson', ...(limit ? ['--limit', String(limit)] : [])], baseEnv);
  const [at10k, at50k, at100k] = [list(10_000), list(50_000), list(undefined)];
  // The default page size (50): 2,000 pages, each found by position in the emulator, not by a scan.
  const byDefault = peakRss(node, [svcBin, 'agents', 'list', '--all', '-o', 'ndjson'], baseEnv);
  row('agents list --all -o ndjson, 100k items, default page size', ms(byDefault.ms), '≤ 10 s', byDefault.ms <= 10_000);
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
} catch (e) {
  if (!(e instanceof Done)) throw e;
} finally {
  emulator.kill();
  rmSync(configDir, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
}

const cols = ['name', 'figure', 'goal', 'met', 'note'];
const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
const line = (r) =>
  cols
    .map((c, i) => String(r[c]).padEnd(width[i]))
    .join('  ')
    .trimEnd();
process.stdout.write([line(Object.fromEntries(cols.map((c) => [c, c]))), ...rows.map(line)].join('\n') + '\n');
