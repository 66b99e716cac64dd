/**
 * The live view (`svc sessions tail` on a real terminal, in tmux) over a session of EVENTS complete events (default
 * 1,000,000) plus DELTAS text deltas per message: peak RSS of the CLI process (VmHWM; goal <= 160 MiB), time to the
 * first frame, and throughput. A small SSE server in this process plays the service, so only the view is measured.
 * NODE_ARGS passes flags to the CLI's node (e.g. NODE_ARGS=--max-old-space-size=64 to tell live data from GC slack).
 * MODE=ndjson measures `--no-live` instead (the stream path without the view), as the baseline.
 * Frames per second: the CLI's terminal writes made in one task (one callback of the event loop, up to its
 * microtasks) counted as one frame: a publish of the view's store renders the frame and writes the transcript lines
 * of that commit synchronously, so a frame never spans two tasks, and two frames never share one. Over the busiest
 * 1 s window and on average (goal <= 30). The older count, writes more than 2 ms apart, is printed beside it: on a
 * loaded machine it splits a frame whose layout takes longer than 2 ms into two.
 * Run: node bench/live-memory.mjs   (needs tmux; EVENTS=100000 for a quick run; NODE_DISABLE_COMPILE_CACHE=1 runs svc
 * without its compiled-code cache, which is otherwise empty at the start of each run: the bench builds svc afresh)
 */
import { spawn, execFile as execFileCb } from 'node:child_process';
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildPrivateSvc } from '../scripts/bundle.mjs';

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const DELTAS = Number(process.env.DELTAS ?? 2);
const NDJSON = process.env.MODE === 'ndjson';
const repo = new URL('..', import.meta.url).pathname;
const work = join(repo, 'node_modules', '.cache', `live-bench-${process.pid}`);
const socket = `svc-live-bench-${process.pid}`;
const conf = join(work, 'tmux.conf');
const execFile = promisify(execFileCb);
const tmux = async (...a) => (await execFile('tmux', ['-L', socket, '-f', conf, ...a], { encoding: 'utf8' })).stdout;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mib = (n) => `${(n / 1024).toFixed(1)} MiB`;
const SID = 'sesn_bench';

/** The events of a busy session: a turn of thinking, a tool call and its result, a reply; child threads now and then. */
let lastId = '';
function* events() {
  let n = 0;
  const ev = (type, data, thread) => ({
    id: `sevt_${++n}`,
    type,
    processed_at: new Date(1_700_000_000_000 + n).toISOString(),
    ...(thread ? { session_thread_id: thread } : {}),
    ...(data ? { data } : {}),
  });
  const cycle = ['agent.model_started', 'agent.thinking', 'agent.tool_use', 'agent.tool_result', 'agent.message'];
  for (let i = 0; n < EVENTS; i++) {
    const type = cycle[i % cycle.length];
    const thread = i % 50 < 10 ? 'sthr_child' : undefined;
    if (type === 'agent.message')
      for (let d = 0; d < DELTAS; d++)
        yield { delta: { type: 'agent.delta', ...(thread ? { session_thread_id: thread } : {}), data: { kind: 'text', delta: `part ${d} ` } } };
    if (i === 3) yield { event: ev('session.thread_created', { thread_id: 'sthr_child', parent_thread_id: null, agent_name: 'worker-1' }, 'sthr_child') };
    const data =
      type === 'agent.model_started'
        ? { model: 'bench' }
        : type === 'agent.tool_use'
          ? { name: 'read', input: { path: `src/file${i}.ts` }, permission: 'allow' }
          : type === 'agent.tool_result'
            ? { event_id: `sevt_${n}`, tool_result: { content: [{ type: 'text', text: `contents of file ${i}` }] } }
            : {
                content: [
                  { type: 'text', text: `${type === 'agent.thinking' ? 'Thinking' : 'Message'} number ${i}: the quick brown fox jumps over the lazy dog.` },
                ],
              };
    const e = ev(type, data, thread);
    lastId = e.id;
    yield { event: e };
  }
}

/** Plays the service: the session, its pending list, an empty history and a stream of EVENTS events. */
function startService() {
  let streamed = 0;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    const json = (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === `/v1/sessions/${SID}`)
      return json({ id: SID, title: 'bench', status: 'running', control_epoch: '0', stopping: false, interrupted: false, continue_pending: false });
    if (url.pathname.endsWith('/events/pending')) return json({ items: [] });
    if (url.pathname.endsWith('/events')) return json({ items: [], next_page_token: null, stream_cursor: '0' });
    if (!url.pathname.endsWith('/events/stream'))
      return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"type":"resource_not_found_error","message":"no"}}');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    res.write(`event: control\nid: 0\ndata: {"cursor":"0","reason":"now"}\n\n`);
    let chunk = '';
    for (const item of events()) {
      chunk += item.delta
        ? `event: agent.delta\ndata: ${JSON.stringify(item.delta)}\n\n`
        : `event: ${item.event.type}\nid: ${++streamed}\ndata: ${JSON.stringify(item.event)}\n\n`;
      if (chunk.length > 64 * 1024) {
        if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
        chunk = '';
      }
    }
    res.write(chunk);
    req.on('close', () => res.end());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` })));
}

/** The last bytes of a file (where the newest event is). */
function tailOf(file) {
  if (!existsSync(file)) return '';
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(size, 4096));
    readSync(fd, buf, 0, buf.length, size - buf.length);
    return buf.toString();
  } finally {
    closeSync(fd);
  }
}

const peakKib = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
const rssKib = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

async function main() {
  await buildPrivateSvc(work);
  writeFileSync(conf, '');
  const pidFile = join(work, 'pid');
  const framesFile = join(work, 'frames.json');
  // Records the CLI's pid and start time, counts its terminal writes per second, then runs bin/svc.js as the shell would:
  // CommonJS, like the launcher, so no ESM loader joins the process it measures.
  writeFileSync(
    join(work, 'launch.cjs'),
    [
      `const { writeFileSync } = require('node:fs');`,
      `writeFileSync(${JSON.stringify(pidFile)}, process.pid + ' ' + Date.now());`,
      `const frames = [], gaps = []; let last = -Infinity, open = false; const write = process.stdout.write.bind(process.stdout);`,
      `process.stdout.write = (...a) => { const t = performance.now(); if (t - last > 2) gaps.push(Math.round(t)); last = t;`,
      `  if (!open) { frames.push(Math.round(t)); open = true; queueMicrotask(() => (open = false)); } return write(...a); };`,
      `setInterval(() => writeFileSync(${JSON.stringify(framesFile)}, JSON.stringify({ frames, gaps })), 1000).unref();`,
      `require(${JSON.stringify(join(work, 'bin', 'svc.js'))});`,
    ].join('\n'),
  );
  const { server, url } = await startService();
  const tmuxd = spawn('tmux', ['-L', socket, '-f', conf, '-D'], { stdio: 'ignore' });
  try {
    for (let i = 0; ; i++) {
      try {
        await tmux(
          'new-session',
          '-d',
          '-s',
          'b',
          '-x',
          '120',
          '-y',
          '40',
          'env',
          '-i',
          `PATH=${process.env.PATH}`,
          'TERM=xterm-256color',
          `HOME=${work}`,
          ...(process.env.NODE_DISABLE_COMPILE_CACHE ? ['NODE_DISABLE_COMPILE_CACHE=1'] : []),
          `SVC_CONFIG_DIR=${work}`,
          `SVC_BASE_URL=${url}`,
          'SVC_API_KEY=sk_bench',
          'bash',
          '--norc',
          '--noprofile',
        );
        break;
      } catch (e) {
        if (i > 50) throw e;
        await sleep(50);
      }
    }
    const out = join(work, 'out.ndjson');
    await tmux(
      'send-keys',
      '-t',
      'b',
      '-l',
      `node ${process.env.NODE_ARGS ?? ''} ${join(work, 'launch.cjs')} sessions tail ${SID} --cursor now --deltas${NDJSON ? ` --no-live > ${out}` : ''}`,
    );
    await tmux('send-keys', '-t', 'b', 'Enter');
    while (!existsSync(pidFile)) await sleep(5);
    const [pid, startedAt] = readFileSync(pidFile, 'utf8').split(' ').map(Number);
    let firstFrameMs;
    let peakSeen = 0;
    const target = `events ${EVENTS}`;
    for (;;) {
      const pane = await tmux('capture-pane', '-p', '-J', '-t', 'b');
      if (!NDJSON && firstFrameMs === undefined && pane.includes(`${SID} "bench"`)) firstFrameMs = Date.now() - startedAt;
      if (!existsSync(`/proc/${pid}`)) throw new Error(`the CLI exited before showing ${target}:\n${pane}`);
      peakSeen = Math.max(peakSeen, rssKib(pid));
      if (NDJSON ? lastId && tailOf(out).includes(`"id":"${lastId}"`) : pane.includes(target)) break;
      if (pane.includes('error:')) throw new Error(pane);
      await sleep(firstFrameMs === undefined ? 5 : 250);
    }
    const totalMs = Date.now() - startedAt;
    const peak = peakKib(pid);
    const finalRss = rssKib(pid);
    await tmux('send-keys', '-t', 'b', NDJSON ? 'C-c' : 'q');
    console.log(
      `${NDJSON ? 'sessions tail --no-live (NDJSON to a file)' : 'live view'}, ${EVENTS.toLocaleString()} events + ${DELTAS} deltas per message, in tmux 120x40${process.env.NODE_ARGS ? `, node ${process.env.NODE_ARGS}` : ''}`,
    );
    if (!NDJSON) console.log(`  first frame:   ${firstFrameMs} ms after the process started`);
    console.log(`  all events:    ${(totalMs / 1000).toFixed(1)} s (${Math.round(EVENTS / (totalMs / 1000)).toLocaleString()} events/s)`);
    console.log(`  peak RSS:      ${mib(peak)} (goal <= 160 MiB: ${peak <= 160 * 1024 ? 'met' : 'NOT met'})`);
    console.log(`  RSS at end:    ${mib(finalRss)}`);
    if (!NDJSON && existsSync(framesFile)) {
      const { frames, gaps } = JSON.parse(readFileSync(framesFile, 'utf8'));
      const { mean, busiest } = rate(frames);
      console.log(`  frames/s:      mean ${mean}, busiest second ${busiest} (goal <= 30: ${busiest <= 30 ? 'met' : 'NOT met'})`);
      const old = rate(gaps);
      console.log(`  (writes > 2 ms apart: mean ${old.mean}, busiest second ${old.busiest})`);
    }
  } catch (e) {
    console.error(e);
    process.exitCode = 1;
  } finally {
    await tmux('kill-server').catch(() => undefined);
    tmuxd.kill();
    server.closeAllConnections();
    server.close();
    // The shell may still be writing its last files: retry the cleanup.
    await sleep(200);
    rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

await main();

/** The mean and the busiest 1 s window of a list of frame times (ms). */
function rate(times) {
  let busiest = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= 1000) j++;
    busiest = Math.max(busiest, i - j + 1);
  }
  const spanS = (times.at(-1) - times[0]) / 1000;
  return { mean: (times.length / spanS).toFixed(1), busiest };
}
