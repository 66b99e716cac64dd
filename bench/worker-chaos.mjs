/**
 * Workers under chaos: one emulator (in this process, short lease) and W `svc worker run` processes on one
 * self-hosted environment. Sessions arrive closed-loop (W in flight), each making K tool calls of ~200 ms; every
 * ~KILL_MS one worker is killed with SIGKILL and a new one started. Runs in-process tools and `--on-work` (a script
 * starting `svc worker serve`), for each W. At the end it checks, from history and the emulator's own records:
 * every session idle, every agent.tool_use answered by exactly one accepted result, no result accepted from a
 * stale generation or a revoked token, every row completed. Prints sessions/min and p50/p99 tool latency
 * (agent.tool_use → accepted user.tool_result). Not part of npm test. KILL_SIGNAL=SIGTERM drains instead (a rolling
 * update): the worker finishes its rows within GRACE (default 1s) or hands them back, and must exit 0; its
 * successor starts at once.
 *
 * Run: node bench/worker-chaos.mjs      (S=50 sessions per run, K=3 calls, WS=1,2,4,8, MODES=inprocess,onwork,
 *                                          KILL_MS=2000, LEASE_MS=1000, TOOL_MS=200)
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildPrivateSvc } from '../scripts/bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const S = Number(process.env.S ?? 50);
const K = Number(process.env.K ?? 3);
const WS = (process.env.WS ?? '1,2,4,8').split(',').map(Number);
const MODES = (process.env.MODES ?? 'inprocess,onwork').split(',');
const KILL_MS = Number(process.env.KILL_MS ?? 2000);
const KILL_SIGNAL = process.env.KILL_SIGNAL ?? 'SIGKILL';
const GRACE = process.env.GRACE ?? '1s';
const LEASE_MS = Number(process.env.LEASE_MS ?? 1000);
const TOOL_MS = Number(process.env.TOOL_MS ?? 200);
const RUN_TIMEOUT_MS = Number(process.env.RUN_TIMEOUT_MS ?? 600_000);
const node = process.execPath;

// A private build (the shared dist/ is left alone), inside node_modules so external packages resolve.
const work = join(root, 'node_modules', '.cache', `worker-chaos-${process.pid}`);
const svcBin = await buildPrivateSvc(work);
await build({
  entryPoints: [join(root, 'src/emulator/server.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outfile: join(work, 'emulator.mjs'),
  logLevel: 'error',
});
const { startEmulator } = await import(join(work, 'emulator.mjs'));

const emu = await startEmulator({ port: 0, leaseTtlMs: LEASE_MS, deliveryWindowMs: 2 * LEASE_MS, modelStepMs: 2 });
const audit = auditWrites(emu);
const api = async (method, path, body, headers = {}) => {
  const res = await fetch(emu.url + path, {
    method,
    headers: {
      authorization: `Bearer ${emu.apiKey}`,
      'svc-api-version': '2026-09-01-beta',
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
};
const agent = await api('POST', '/v1/agents', { name: 'chaos', model: 'claude-sonnet-4-5', roster: [{ name: 'worker' }] });

/**
 * The emulator's own record of every tool result a session work token wrote: the generation the token was
 * issued for, the row's generation and whether the token was still live when the write arrived, and the status.
 */
function auditWrites(emu) {
  const issuedFor = new Map();
  const rows = emu.collection('work_rows', 'work', 'work row');
  const issue = emu.credentials.issue.bind(emu.credentials);
  emu.credentials.issue = (cred, token) => {
    const t = issue(cred, token);
    if (cred.kind === 'session') issuedFor.set(t, rows.get(cred.workId)?.generation);
    return t;
  };
  const writes = [];
  emu.server.on('request', (req, res) => {
    if (req.method !== 'POST' || !/^\/v1\/sessions\/[^/]+\/events$/.test(req.url ?? '')) return;
    const token = /^Bearer (st_emu_\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token) return;
    const cred = emu.credentials.resolve(token);
    const w = { live: cred !== undefined, issuedGen: issuedFor.get(token), rowGen: cred ? rows.get(cred.workId)?.generation : undefined };
    res.once('finish', () => writes.push({ ...w, status: res.statusCode }));
  });
  return writes;
}

const onWorkScript = join(work, 'serve.sh');
writeFileSync(onWorkScript, `#!/bin/sh\nexec "${node}" "${svcBin}" worker serve --workdir "$PWD"\n`);
chmodSync(onWorkScript, 0o755);

function startWorker(envId, key, mode, n) {
  const args = [
    svcBin,
    'worker',
    'run',
    '--environment',
    envId,
    '--workdir',
    workdirFor(n),
    '--worker-id',
    `chaos-${n}`,
    ...(mode === 'onwork' ? ['--on-work', onWorkScript] : []),
    ...(KILL_SIGNAL === 'SIGTERM' ? ['--grace', GRACE] : []),
  ];
  const child = spawn(node, args, {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SVC_BASE_URL: emu.url,
      SVC_ENVIRONMENT_KEY: key,
      SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-chaos-')),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Started: its signal handlers are in place (a SIGTERM before them is Node's default death, not a drain).
  child.stderr.on('data', (d) => (child.started ||= String(d).includes('worker started')));
  return child;
}

const workdirFor = (n) => {
  const d = join(work, `wd-${n}`);
  mkdirSync(d, { recursive: true });
  return d;
};

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

async function history(sid) {
  const out = [];
  let token;
  do {
    const page = await api('GET', `/v1/sessions/${sid}/events?page_size=1000${token ? `&page_token=${token}` : ''}`);
    out.push(...page.items);
    token = page.next_page_token;
  } while (token);
  return out;
}

async function runOnce(mode, W) {
  const env = await api('POST', '/v1/environments', { name: `chaos-${mode}-${W}-${Date.now()}`, config: { type: 'self_hosted' } });
  const { key } = await api('POST', `/_emulator/environments/${env.id}/keys`);
  let next = 0;
  const workers = [];
  for (let i = 0; i < W; i++) workers.push(startWorker(env.id, key, mode, next++));
  const writesBefore = audit.length;
  let kills = 0;
  const drained = [];
  const killer = setInterval(() => {
    const ready = workers.map((w, i) => (w.started || KILL_SIGNAL !== 'SIGTERM' ? i : -1)).filter((i) => i >= 0);
    if (ready.length === 0) return;
    const i = ready[Math.floor(Math.random() * ready.length)];
    const w = workers[i];
    if (KILL_SIGNAL === 'SIGTERM') drained.push(new Promise((r) => (w.exitCode !== null ? r(w.exitCode) : w.once('exit', (code, sig) => r(code ?? sig)))));
    w.kill(KILL_SIGNAL);
    kills++;
    workers[i] = startWorker(env.id, key, mode, next++);
  }, KILL_MS);
  const started = Date.now();
  const sids = [];
  const call = JSON.stringify({ command: `sleep ${TOOL_MS / 1000}; echo ok` });
  // Closed loop: W sessions in flight; each one's K messages queue and run one after another.
  const one = async () => {
    const s = await api('POST', '/v1/sessions', { agent_id: agent.id, environment_id: env.id });
    sids.push(s.id);
    // One message per call: inputs sent in one request would make one turn.
    for (let i = 0; i < K; i++)
      await api('POST', `/v1/sessions/${s.id}/events`, {
        events: [{ type: 'user.message', data: { content: [{ type: 'text', text: `/tool bash ${call}` }] } }],
      });
    for (;;) {
      const got = await api('GET', `/v1/sessions/${s.id}`);
      if (got.status === 'idle' && (await history(s.id)).filter((e) => e.type === 'agent.message').length >= K) return;
      if (Date.now() - started > RUN_TIMEOUT_MS) throw new Error(`session ${s.id} stuck`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  let issued = 0;
  const lanes = Array.from({ length: W }, async () => {
    while (issued < S) {
      issued++;
      await one();
    }
  });
  let failure;
  try {
    await Promise.all(lanes);
  } catch (e) {
    failure = e;
  }
  const elapsed = Date.now() - started;
  clearInterval(killer);
  // Let the last rows complete before the workers go.
  const deadline = Date.now() + 10 * LEASE_MS + 10_000;
  let rows = [];
  while (Date.now() < deadline) {
    rows = (await api('GET', `/v1/environments/${env.id}/work?page_size=1000`)).items;
    if (rows.length >= sids.length && rows.every((r) => r.status === 'completed')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const w of workers) w.kill('SIGTERM');
  await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null || w.signalCode !== null ? r() : w.once('exit', r)))));
  const drainCodes = await Promise.all(drained);
  const drainFailures = drainCodes.filter((code) => code !== 0).length;
  if (drainFailures) console.error('drained workers exited with', drainCodes.filter((c) => c !== 0).join(' '));

  const latencies = [];
  let stuck = 0;
  let duplicates = 0;
  let unanswered = 0;
  for (const sid of sids) {
    const s = await api('GET', `/v1/sessions/${sid}`);
    const h = await history(sid);
    if (s.status !== 'idle') {
      stuck++;
      const row = rows.find((r) => r.session_id === sid);
      console.error(
        `stuck ${sid}: session ${s.status}; row ${row?.status} generation ${row?.generation} worker ${row?.worker_id}; last events ${h
          .slice(-4)
          .map((e) => e.type)
          .join(', ')}`,
      );
    }
    const results = new Map();
    for (const e of h) if (e.type === 'user.tool_result') results.set(e.data.event_id, [...(results.get(e.data.event_id) ?? []), e]);
    for (const use of h.filter((e) => e.type === 'agent.tool_use')) {
      const rs = results.get(use.id) ?? [];
      if (rs.length === 0) unanswered++;
      if (rs.length > 1) duplicates++;
      if (rs[0]) latencies.push(Date.parse(rs[0].processed_at) - Date.parse(use.processed_at));
    }
  }
  const writes = audit.slice(writesBefore);
  const accepted = writes.filter((w) => w.status < 300);
  const staleAccepted = accepted.filter((w) => !w.live || w.issuedGen !== w.rowGen).length;
  const refused = writes.filter((w) => w.status === 401).length;
  const notCompleted = rows.filter((r) => r.status !== 'completed').length + Math.max(0, sids.length - rows.length);
  return {
    mode,
    W,
    sessions: sids.length,
    calls: latencies.length,
    kills,
    sessionsPerMin: (sids.length / elapsed) * 60_000,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    stuck,
    duplicates,
    unanswered,
    staleAccepted,
    refusedWrites: refused,
    notCompleted,
    drainFailures,
    failure: failure?.message,
  };
}

const results = [];
try {
  for (const mode of MODES) {
    for (const W of WS) {
      const r = await runOnce(mode, W);
      results.push(r);
      console.log(
        `${mode.padEnd(9)} W=${String(W).padEnd(2)} sessions=${r.sessions} calls=${r.calls} kills=${r.kills}  ` +
          `${r.sessionsPerMin.toFixed(1)} sessions/min  tool p50=${r.p50} ms p99=${r.p99} ms  ` +
          `stuck=${r.stuck} duplicate=${r.duplicates} unanswered=${r.unanswered} stale_accepted=${r.staleAccepted} ` +
          `not_completed=${r.notCompleted} drain_exit_not_0=${r.drainFailures} (refused stale writes: ${r.refusedWrites})${r.failure ? `  FAILURE: ${r.failure}` : ''}`,
      );
    }
  }
  for (const mode of MODES) {
    const one = results.find((r) => r.mode === mode && r.W === 1);
    const four = results.find((r) => r.mode === mode && r.W === 4);
    if (one && four) console.log(`${mode}: W=4 / W=1 throughput = ${(four.sessionsPerMin / one.sessionsPerMin).toFixed(2)}x (goal >= 3x)`);
  }
  const total = (k) => results.reduce((a, r) => a + r[k], 0);
  console.log(
    `total: ${total('sessions')} sessions, ${total('kills')} kills; stuck=${total('stuck')} duplicate=${total('duplicates')} stale_accepted=${total('staleAccepted')} not_completed=${total('notCompleted')}`,
  );
  process.exitCode =
    ['stuck', 'duplicates', 'unanswered', 'staleAccepted', 'notCompleted', 'drainFailures'].some((k) => total(k) > 0) || results.some((r) => r.failure) ? 1 : 0;
} finally {
  await emu.close();
  rmSync(work, { recursive: true, force: true });
}
