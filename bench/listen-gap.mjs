/**
 * Peak RSS of `svc listen --state` resuming after a gap: a session seeded with GAP events, a state file anchored at
 * its first event, and a receiver answering 204. Reports svc's VmHWM once every missed event was delivered, and the
 * count (each once). Not part of npm test.
 *
 * Run: node bench/listen-gap.mjs   (GAP=30000)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateSvc } from './lib/private-svc.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const GAP = Number(process.env.GAP ?? 30_000);

const { svcBin, emuEnv, close } = await privateSvc(root, 'listen-gap-bench', 'sk_listen_gap_bench');
const dir = mkdtempSync(join(tmpdir(), 'svc-listen-gap-'));
const env = { PATH: process.env.PATH, HOME: process.env.HOME, SVC_CONFIG_DIR: dir, ...emuEnv };
const api = async (method, path, body) => {
  const res = await fetch(emuEnv.SVC_BASE_URL + path, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${emuEnv.SVC_API_KEY}`, 'svc-api-version': '2026-09-01-beta' },
    body: body && JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
};
const ids = new Set();
let posts = 0;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    posts++;
    ids.add(JSON.parse(body).event.id);
    res.writeHead(204).end();
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
try {
  const { session_id: sid } = await api('POST', '/_emulator/seed', { session_events: GAP + 1 });
  const [first] = (await api('GET', `/v1/sessions/${sid}/events?page_size=1`)).items;
  const state = join(dir, 'state.json');
  const since = new Date(Date.parse(first.processed_at) - 60_000).toISOString();
  writeFileSync(state, JSON.stringify({ version: 1, since, sessions: { [sid]: { event_id: first.id, processed_at: first.processed_at } } }), { mode: 0o600 });
  const url = `http://127.0.0.1:${server.address().port}/hooks`;
  const t0 = Date.now();
  const child = spawn(process.execPath, [svcBin, 'listen', sid, '--forward-to', url, '--state', state], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let peak = 0;
  const hwm = () => {
    try {
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0));
    } catch {
      // exited
    }
  };
  while (ids.size < GAP) {
    hwm();
    await new Promise((r) => setTimeout(r, 100));
    if (Date.now() - t0 > 600_000) throw new Error(`only ${ids.size} of ${GAP} delivered`);
  }
  hwm();
  const ms = Date.now() - t0;
  child.kill('SIGTERM');
  const code = await new Promise((r) => child.on('exit', r));
  console.log(
    `listen resuming a gap of ${GAP} events: peak RSS ${(peak / 1024).toFixed(0)} MiB, ${ids.size} delivered (${posts} POSTs) in ${ms} ms, exit ${code}`,
  );
} finally {
  server.close();
  close();
}
