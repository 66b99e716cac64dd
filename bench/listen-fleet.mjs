/**
 * `svc listen` over a fleet: N sessions (S streams, the rest polled) forwarding to a receiver that fails a share of
 * deliveries (500). Each session runs TURNS turns. At the end it counts, against every session's history: events
 * lost (never accepted with a 2xx), events accepted twice (two 2xx for one Svc-Delivery-Id), bad signatures; and
 * prints svc's peak RSS (VmHWM) and the event-to-delivery latency (processed_at → the accepted POST) p50/p99, for
 * the streamed and the polled sessions apart. Not part of npm test.
 *
 * Run: node bench/listen-fleet.mjs   (N=200 S=64 TURNS=3 FAIL=0.1 INTERVAL=1s)
 */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { fleet } from './lib/fleet.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.N ?? 200);
const S = Number(process.env.S ?? 64);
const TURNS = Number(process.env.TURNS ?? 3);
const FAIL = Number(process.env.FAIL ?? 0.1);
const INTERVAL = process.env.INTERVAL ?? '1s';
const TIMEOUT_MS = Number(process.env.TIMEOUT_MS ?? 600_000);

if (isMainThread) await main();
else receiverThread();

async function main() {
  const f = await fleet(root, 'listen-bench');
  const quantile = (xs, q) => {
    if (!xs.length) return NaN;
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(q * s.length))];
  };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  async function until(check, what, timeoutMs = TIMEOUT_MS) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = await check();
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(200);
    }
  }

  // The receiver, on a thread of its own (so the load and the floor reader here do not slow its answers): fails FAIL
  // of the POSTs with a 500 at random, keeps every accepted one.
  const receiver = new Worker(new URL(import.meta.url), { workerData: { fail: FAIL } });
  const asked = new Map();
  let asks = 0;
  receiver.on('message', (m) => asked.get(m.ask)?.(m.value));
  const ask = (what, value) =>
    new Promise((resolve) => {
      const n = ++asks;
      asked.set(n, resolve);
      receiver.postMessage({ ask: n, what, value });
    });
  const url = `http://127.0.0.1:${await ask('port')}/hooks`;
  const run = (args) => spawn(process.execPath, [f.svcBin, ...args], { env: f.env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const secret = await new Promise((resolve) => {
      let out = '';
      const p = run(['listen', '--print-secret']);
      p.stdout.on('data', (d) => (out += d));
      p.on('exit', () => resolve(out.trim()));
    });
    await ask('secret', secret);
    const ids = await f.sessions(N, { bench: 'listen' }, 8);
    const listener = run(['listen', '-l', 'bench=listen', '--forward-to', url, '--max-streams', String(S), '--interval', INTERVAL]);
    let stderr = '';
    listener.stderr.on('data', (d) => (stderr += d));
    listener.stdout.resume();
    // Ready once every session has been seen: S streams open and the rest known to the poller.
    const stats = async () => (await fetch(`${f.emuEnv.SVC_BASE_URL}/_emulator/stats`)).json();
    await until(async () => stderr.includes('listening to') && (await stats()).requests > N, 'the listener to start', 60_000);
    await sleep(3000);

    // The floor: the emulator's own delay to a bare SSE reader in this process, on a few sessions, under the same load.
    const floor = [];
    const floorAbort = new AbortController();
    for (const id of ids.slice(-10)) {
      const res = await fetch(`${f.emuEnv.SVC_BASE_URL}/v1/sessions/${id}/events/stream?cursor=now`, {
        headers: { authorization: `Bearer ${f.emuEnv.SVC_API_KEY}`, 'svc-api-version': '2026-09-01-beta', accept: 'text/event-stream' },
        signal: floorAbort.signal,
      });
      void (async () => {
        const dec = new TextDecoder();
        let buf = '';
        try {
          for await (const chunk of res.body) {
            buf += dec.decode(chunk, { stream: true });
            const frames = buf.split('\n\n');
            buf = frames.pop();
            for (const fr of frames) {
              const at = /"processed_at":"([^"]+)"/.exec(fr)?.[1];
              if (at) floor.push(Date.now() - Date.parse(at));
            }
          }
        } catch {
          // aborted at the end
        }
      })();
    }
    const rssKib = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${listener.pid}/status`, 'utf8'))[1]);
    const idleRss = rssKib('VmRSS') / 1024;
    const t0 = Date.now();
    for (let turn = 1; turn <= TURNS; turn++) {
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < ids.length) {
            const id = ids[next++];
            await f.api('POST', `/v1/sessions/${id}/events`, {
              events: [{ type: 'user.message', data: { content: [{ type: 'text', text: `/echo turn ${turn} of ${id}` }] } }],
            });
          }
        }),
      );
    }
    // Every turn done, then every persisted event accepted (or the timeout).
    const histories = new Map();
    await until(async () => {
      for (const id of ids) {
        if (histories.has(id)) continue;
        const h = (await f.api('GET', `/v1/sessions/${id}/events?page_size=1000`)).items;
        if (h.filter((e) => e.type === 'session.status' && e.data.status === 'idle').length >= TURNS) histories.set(id, h);
      }
      return histories.size === ids.length;
    }, 'every turn to finish');
    const total = [...histories.values()].reduce((n, h) => n + h.length, 0);
    await until(async () => (await ask('count')) >= total, 'every event to be accepted').catch((e) => process.stderr.write(`${e.message}\n`));
    const wall = Date.now() - t0;
    const [utime, stime] = readFileSync(`/proc/${listener.pid}/stat`, 'utf8').split(') ')[1].split(' ').slice(11, 13).map(Number);
    const cpu = (utime + stime) / 100;
    const hwm = rssKib('VmHWM') / 1024;
    floorAbort.abort();
    listener.kill('SIGINT');
    const code = await new Promise((r) => listener.on('exit', (c) => r(c)));

    const { accepted, posts, failed, badSignatures } = await ask('report');
    const got = new Set([...accepted.values()].map((a) => `${a[0].session} ${a[0].event.id}`));
    let lost = 0;
    for (const [id, h] of histories) for (const e of h) if (!got.has(`${id} ${e.id}`)) lost++;
    const twice = [...accepted.values()].filter((a) => a.length > 1).length;
    // Streamed sessions: the ones the listener opened a stream for (the emulator logs nothing per session: the first S
    // listed, newest first, are the streamed ones).
    const newestFirst = [...ids].reverse();
    const streamed = new Set(newestFirst.slice(0, S));
    const lat = { streamed: [], polled: [] };
    for (const [, a] of accepted) {
      const ms = a[0].at - Date.parse(a[0].event.processed_at);
      (streamed.has(a[0].session) ? lat.streamed : lat.polled).push(ms);
    }
    const all = [...lat.streamed, ...lat.polled];
    if (process.env.BY_TYPE) {
      const byType = new Map();
      for (const [, a] of accepted) byType.set(a[0].event.type, [...(byType.get(a[0].event.type) ?? []), a[0].at - Date.parse(a[0].event.processed_at)]);
      for (const [type, xs] of byType) process.stderr.write(`  ${type}: p50 ${quantile(xs, 0.5)} ms\n`);
    }
    const fmt = (xs) => `p50 ${quantile(xs, 0.5)} ms, p99 ${quantile(xs, 0.99)} ms (${xs.length} events)`;
    const lines = [
      `svc listen: ${N} sessions, ${S} streams, ${TURNS} turns each, the receiver failing ${Math.round(FAIL * 100)} % (interval ${INTERVAL})`,
      `  events persisted        ${total}`,
      `  POSTs                   ${posts} (${failed} answered 500)`,
      `  lost                    ${lost}`,
      `  accepted twice (2xx)    ${twice}`,
      `  bad signatures          ${badSignatures}`,
      `  peak RSS (VmHWM)        ${hwm.toFixed(1)} MiB (${idleRss.toFixed(1)} MiB following the idle fleet, before the load)`,
      `  latency, all            ${fmt(all)}`,
      `  latency, streamed       ${fmt(lat.streamed)}`,
      `  latency, polled         ${fmt(lat.polled)}`,
      `  floor: emulator → a bare SSE reader, ${fmt(floor)}`,
      `  wall time               ${(wall / 1000).toFixed(1)} s (svc listen used ${cpu.toFixed(1)} s of CPU); exit on Ctrl-C ${code}`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    await receiver.terminate();
    f.close();
  }
}

function receiverThread() {
  const accepted = new Map(); // delivery id → [{ at, event, session }]
  const events = new Set();
  let posts = 0;
  let failed = 0;
  let badSignatures = 0;
  let secret = '';
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      posts++;
      const body = Buffer.concat(chunks).toString();
      const [t, v1] = String(req.headers['svc-signature'])
        .split(',')
        .map((p) => p.split('=')[1]);
      if (createHmac('sha256', secret).update(`${t}.${body}`).digest('hex') !== v1) badSignatures++;
      if (Math.random() < workerData.fail) {
        failed++;
        res.writeHead(500).end();
        return;
      }
      const { session_id, event } = JSON.parse(body);
      const id = String(req.headers['svc-delivery-id']);
      accepted.set(id, [
        ...(accepted.get(id) ?? []),
        { at: Date.now(), event: { id: event.id, type: event.type, processed_at: event.processed_at }, session: session_id },
      ]);
      events.add(`${session_id} ${event.id}`);
      res.writeHead(200).end();
    });
  });
  const listening = new Promise((r) => server.listen(0, '127.0.0.1', r));
  parentPort.on('message', async ({ ask, what, value }) => {
    let answer;
    if (what === 'port') answer = (await listening, server.address().port);
    else if (what === 'secret') secret = value;
    else if (what === 'count') answer = events.size;
    else if (what === 'report') answer = { accepted, posts, failed, badSignatures };
    parentPort.postMessage({ ask, value: answer });
  });
}
