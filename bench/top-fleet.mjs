/**
 * `svc top` over a big fleet on the emulator, on a real pseudo-terminal (script(1)), measured from outside:
 *   1. time from start to the first screenful of rows, and to the full board (the header counts every session),
 *      over N idle sessions, beside the floor: `svc sessions list --all` of the same fleet to /dev/null;
 *   2. requests per interval on that quiet fleet (the emulator's own count);
 *   3. redraws per second while a firehose of events hits the running sessions on screen (frames counted in the
 *      terminal's output: each Ink frame starts by erasing the last one);
 *   4. peak RSS of svc top after DURATION seconds with 50 sessions running.
 * Run: node bench/top-fleet.mjs   (N=10000 RUNNING=50 DURATION=300 FIREHOSE=10)
 * Goals (issue "svc top"): first full board within 2 s; ≤ 150 MiB after 5 minutes with 50 running; ≤ 10 redraws per
 * second; one list request per interval on a quiet fleet.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fleet } from './lib/fleet.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.N ?? 10_000);
const RUNNING = Number(process.env.RUNNING ?? 50);
const DURATION = Number(process.env.DURATION ?? 300);
const FIREHOSE = Number(process.env.FIREHOSE ?? 10);
const INTERVAL_S = 1;

const ESCAPES = /\u001b\[[0-9;?]*[A-Za-z]/g;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const f = await fleet(root, 'top-bench');
const stats = async () => (await f.api('GET', '/_emulator/stats')).requests;

/** svc top on a pseudo-terminal of 50 rows × 160 columns; counts the frames Ink draws and keeps the output's tail. */
function startTop() {
  const command = `stty rows 50 cols 160; exec node ${process.env.TOP_NODE_ARGS ?? ''} ${f.svcBin} top --interval ${INTERVAL_S}s`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...f.env, TERM: 'xterm-256color', ...(process.env.TOP_NODE_OPTIONS ? { NODE_OPTIONS: process.env.TOP_NODE_OPTIONS } : {}) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const FRAME = '\u001b[2K\u001b[G';
  const top = { child, frames: 0, tail: '', started: performance.now() };
  let carry = '';
  child.stdout.on('data', (d) => {
    const text = carry + d.toString('utf8');
    top.frames += text.split(FRAME).length - 1;
    carry = text.slice(-FRAME.length + 1);
    top.tail = (top.tail + d.toString('utf8').replace(ESCAPES, '')).slice(-200_000);
  });
  top.pid = () => {
    const kids = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/);
    return Number(kids[0]);
  };
  const statusMiB = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${top.pid()}/status`, 'utf8'))[1]) / 1024;
  top.hwmMiB = () => statusMiB('VmHWM');
  top.rssMiB = () => statusMiB('VmRSS');
  // Where the peak happens: RSS sampled every 100 ms, the highest per phase of the bench.
  top.phase = 'start';
  top.peaks = {};
  top.sampler = setInterval(() => {
    try {
      top.peaks[top.phase] = Math.max(top.peaks[top.phase] ?? 0, top.rssMiB());
    } catch {
      // the process has just exited: nothing to sample
    }
  }, 100);
  top.until = async (test, what, timeoutMs = 60_000) => {
    const end = Date.now() + timeoutMs;
    while (!test(top.tail)) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(5);
    }
    return performance.now() - top.started;
  };
  return top;
}

const message = (text) => ({ type: 'user.message', data: { content: [{ type: 'text', text }] } });

let top;
try {
  const t0 = Date.now();
  await f.sessions(N, { bench: 'top' }, 16);
  console.log(`svc top over ${N} idle sessions (created in ${((Date.now() - t0) / 1000).toFixed(1)} s), --interval ${INTERVAL_S}s, a 160×50 terminal`);

  const floor = performance.now();
  await new Promise((resolve, reject) =>
    spawn(process.execPath, [f.svcBin, 'sessions', 'list', '--all', '--page-size', '1000', '-o', 'ndjson'], {
      env: f.env,
      stdio: ['ignore', 'ignore', 'inherit'],
    }).on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`sessions list exited ${code}`)))),
  );
  const listAll = performance.now() - floor;

  top = startTop();
  top.phase = 'first list';
  const firstFrame = await top.until((t) => t.includes('svc top │'), 'the first frame');
  // The tail holds many frames: the count the board shows now is the last one in it.
  const shown = (t) => Number([...t.matchAll(/sessions: (\d+) \(/g)].at(-1)?.[1] ?? 0);
  const screenful = await top.until((t) => shown(t) >= 43, 'a screenful of rows');
  const fullBoard = await top.until((t) => t.includes(`sessions: ${N} (`), 'the full board');
  console.log(`  first frame: ${firstFrame.toFixed(0)} ms; first screenful of rows: ${screenful.toFixed(0)} ms (goal: 2000 ms)`);
  console.log(
    `  full board (all ${N} sessions listed and counted): ${fullBoard.toFixed(0)} ms; floor, svc sessions list --all to /dev/null: ${listAll.toFixed(0)} ms`,
  );
  console.log(`  peak RSS so far (the first full list): ${top.hwmMiB().toFixed(1)} MiB`);

  // A quiet fleet: the board has settled (names, pending counts of the rows on screen); count what it asks for.
  await sleep(3000);
  // Thirty intervals: twenty-nine polls and the watch's full resync (which alone sees deletions).
  const QUIET = 30;
  top.phase = 'quiet';
  const before = await stats();
  await sleep(QUIET * INTERVAL_S * 1000);
  // The stats read itself is one request.
  const quiet = (await stats()) - before - 1;
  console.log(
    `  quiet fleet: ${quiet} requests over ${QUIET} intervals = ${(quiet / QUIET).toFixed(2)} per interval (goal: 1; ${QUIET - 1} polls of one request each and a full resync of ${Math.ceil(N / 1000)} pages)`,
  );

  // Running sessions: a slow reply each, so they run for the whole bench.
  top.phase = 'starting runs';
  const agent = await f.api('POST', '/v1/agents', { name: 'bench-top-running', model: 'scripted-1' });
  const running = [];
  for (let i = 0; i < RUNNING; i++) {
    const s = await f.api('POST', '/v1/sessions', { agent_id: agent.id, title: `running ${i}` });
    await f.api('POST', `/v1/sessions/${s.id}/events`, { events: [message('/slow 600000')] });
    running.push(s.id);
  }
  await top.until((t) => t.includes(`(${RUNNING} running`), 'the running sessions on the board');
  const rssStart = Date.now();

  // The firehose: steer messages into the running sessions (those on screen have their streams open), as fast as
  // the emulator takes them, each a complete event on a stream and a change of the session.
  top.phase = 'firehose';
  const framesBefore = top.frames;
  const fhStart = performance.now();
  let sent = 0;
  const stopAt = Date.now() + FIREHOSE * 1000;
  await Promise.all(
    Array.from({ length: 16 }, async (_, w) => {
      while (Date.now() < stopAt) {
        const id = running[(w + sent) % running.length];
        await f.api('POST', `/v1/sessions/${id}/events`, { type: 'steer', events: [message(`steer ${sent}`)] }).then(
          () => sent++,
          () => undefined,
        );
      }
    }),
  );
  const fhSeconds = (performance.now() - fhStart) / 1000;
  const redraws = (top.frames - framesBefore) / fhSeconds;
  console.log(
    `  firehose: ${sent} events in ${fhSeconds.toFixed(1)} s (${(sent / fhSeconds).toFixed(0)}/s): ${redraws.toFixed(1)} redraws per second (goal: ≤ 10)`,
  );

  top.phase = 'running';
  const left = DURATION * 1000 - (Date.now() - rssStart);
  if (left > 0) await sleep(left);
  console.log(
    `  peak RSS of svc top after ${DURATION} s with ${RUNNING} running (and ${N} idle): ${top.hwmMiB().toFixed(1)} MiB (goal: ≤ 150 MiB); RSS now ${top.rssMiB().toFixed(1)} MiB`,
  );
  clearInterval(top.sampler);
  console.log(
    `  highest RSS sampled per phase (MiB): ${Object.entries(top.peaks)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ')}`,
  );
  top.child.stdin.write('q');
  await new Promise((r) => top.child.on('exit', r));
} finally {
  if (top) clearInterval(top.sampler);
  if (top && top.child.exitCode === null) top.child.kill();
  f.close();
}
