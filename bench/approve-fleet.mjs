/**
 * What `svc approve serve` costs over a fleet: N watched sessions (S streams, the rest polled), first quiet for
 * QUIET seconds (the steady cost: requests per minute to the service, RSS), then W of them asking for a confirmation
 * at once that the policy allows (the time until every one is answered, and the requests that took). At the end it
 * checks every asked call was answered exactly once. Not part of npm test.
 *
 * Run: node bench/approve-fleet.mjs   (N=1000 S=64 W=100 QUIET=60 INTERVAL=2s)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fleet } from './lib/fleet.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.N ?? 1000);
const S = Number(process.env.S ?? 64);
const W = Number(process.env.W ?? 100);
const QUIET = Number(process.env.QUIET ?? 60);
const INTERVAL = process.env.INTERVAL ?? '2s';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(check, what, timeoutMs = 600_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

const f = await fleet(root, 'approve-bench');
const dir = mkdtempSync(join(tmpdir(), 'svc-approve-bench-'));
writeFileSync(join(dir, 'policy.yaml'), 'rules:\n  - {name: shell, match: {tool: bash, input: {command: {prefix: "ls "}}}, decision: allow}\n');
const stats = async () => (await fetch(`${f.emuEnv.SVC_BASE_URL}/_emulator/stats`)).json();
try {
  const ids = await f.sessions(N, { bench: 'approve' }, 8);
  const approver = spawn(
    process.execPath,
    [
      f.svcBin,
      'approve',
      'serve',
      '--policy',
      join(dir, 'policy.yaml'),
      '-l',
      'bench=approve',
      '--max-streams',
      String(S),
      '--interval',
      INTERVAL,
      '--audit',
      join(dir, 'audit.ndjson'),
    ],
    { env: f.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  approver.stderr.on('data', (d) => (stderr += d));
  approver.stdout.resume();
  const rss = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${approver.pid}/status`, 'utf8'))[1]) / 1024;
  const cpu = () =>
    readFileSync(`/proc/${approver.pid}/stat`, 'utf8')
      .split(') ')[1]
      .split(' ')
      .slice(11, 13)
      .map(Number)
      .reduce((a, b) => a + b, 0) / 100;
  await until(async () => stderr.includes('approving with') && (await stats()).requests > N, 'the approver to start', 120_000);
  // Warm-up: every session seen and read once.
  await sleep(10_000);
  const r0 = (await stats()).requests;
  const c0 = cpu();
  const t0 = Date.now();
  await sleep(QUIET * 1000);
  const quietMin = (Date.now() - t0) / 60_000;
  const quietRequests = ((await stats()).requests - r0) / quietMin;
  const quietCpu = (cpu() - c0) / (quietMin * 60);
  const quietRss = rss('VmRSS');

  // W sessions ask at once (spread over streamed and polled ones).
  const asking = Array.from({ length: W }, (_, i) => ids[Math.floor((i * N) / W)]);
  const r1 = (await stats()).requests;
  const t1 = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < asking.length) {
        const id = asking[next++];
        await f.api('POST', `/v1/sessions/${id}/events`, {
          events: [{ type: 'user.message', data: { content: [{ type: 'text', text: `/confirm bash {"command":"ls ${id}"}` }] } }],
        });
      }
    }),
  );
  const confirmations = async (id) => (await f.api('GET', `/v1/sessions/${id}/events?page_size=1000`)).items.filter((e) => e.type === 'user.tool_confirmation');
  const audited = () => {
    try {
      return readFileSync(join(dir, 'audit.ndjson'), 'utf8').split('\n').filter(Boolean).length;
    } catch {
      return 0;
    }
  };
  await until(() => audited() >= W, 'every call answered');
  const answerWall = (Date.now() - t1) / 1000;
  const answerRequests = (await stats()).requests - r1;
  const hwm = rss('VmHWM');
  approver.kill('SIGINT');
  await new Promise((r) => approver.on('exit', r));
  let twice = 0;
  let missed = 0;
  for (const id of asking) {
    const n = (await confirmations(id)).length;
    if (n > 1) twice++;
    if (n === 0) missed++;
  }
  console.log(`svc approve serve over ${N} watched sessions (${S} streams, the rest polled every ${INTERVAL})`);
  console.log(
    `  quiet fleet: ${quietRequests.toFixed(0)} requests/min to the service, CPU ${(quietCpu * 100).toFixed(1)} % of a core, RSS ${quietRss.toFixed(1)} MiB`,
  );
  console.log(
    `  ${W} calls asked at once: all answered in ${answerWall.toFixed(1)} s, ${answerRequests} requests (${(answerRequests / W).toFixed(1)} per call, the bench's own sends included)`,
  );
  console.log(`  peak RSS (VmHWM) ${hwm.toFixed(1)} MiB; answered twice: ${twice}, missed: ${missed}`);
  if (twice || missed) process.exitCode = 1;
} finally {
  await f.close();
}
