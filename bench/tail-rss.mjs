/**
 * The tail's own bench, on a private bundle (the shared dist/ is left alone): time of
 * `sessions tail --no-live -o ndjson` over FRAMES frames against `curl -N` on the same stream, and peak RSS of the
 * same tail over BIG events. Run: node bench/tail-rss.mjs   (FRAMES=200000 BIG=1000000 ROUNDS=3; BIG=0 skips RSS)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paired, peakRss, timeRun } from './lib/measure.mjs';
import { privateSvc } from './lib/private-svc.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const FRAMES = Number(process.env.FRAMES ?? 200_000);
const BIG = Number(process.env.BIG ?? 1_000_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const node = process.execPath;

const { svcBin, emuEnv, close } = await privateSvc(root, 'tail-bench', 'sk_tail_bench');
const env = { PATH: process.env.PATH, HOME: process.env.HOME, SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-tail-bench-')), ...emuEnv };
const admin = async (path, body) => {
  const res = await fetch(emuEnv.SVC_BASE_URL + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
};
const tailArgs = (sid) => [svcBin, 'sessions', 'tail', sid, '--no-live', '-o', 'ndjson', '--cursor', '0', '--until', 'idle'];

try {
  const { session_id: sid } = await admin('/_emulator/seed', { session_events: FRAMES });
  const url = `${emuEnv.SVC_BASE_URL}/v1/sessions/${sid}/events/stream?cursor=0`;
  const curl = async () => {
    // The drop fault closes curl's stream after the last frame, so curl exits like the tail does.
    await admin('/_emulator/faults', { drop_stream_after: FRAMES });
    const args = [
      '-sN',
      '-o',
      '/dev/null',
      '-H',
      `authorization: Bearer ${emuEnv.SVC_API_KEY}`,
      '-H',
      'svc-api-version: 2026-09-01-beta',
      '-H',
      'accept: text/event-stream',
      url,
    ];
    const ms = timeRun('curl', args, env);
    await admin('/_emulator/faults', {});
    return ms;
  };
  const r = await paired(ROUNDS, curl, async () => timeRun(node, tailArgs(sid), env));
  console.log(
    `tail --no-live -o ndjson, ${FRAMES} frames: ${r.subjectMs.toFixed(0)} ms vs curl -N ${r.floorMs.toFixed(0)} ms = ${r.ratio.toFixed(2)}× (goal ≤ 12×)`,
  );
  if (BIG > 0) {
    const { session_id: big } = await admin('/_emulator/seed', { session_events: BIG });
    const m = peakRss(node, tailArgs(big), env);
    console.log(`peak RSS, tail of ${BIG} events: ${m.mib.toFixed(0)} MiB in ${m.ms.toFixed(0)} ms (goal ≤ 120 MiB)`);
  }
} finally {
  close();
}
