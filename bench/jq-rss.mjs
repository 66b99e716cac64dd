/**
 * --jq over long streams, on a private bundle (the shared dist/ is left alone): peak RSS of
 * `agents list --all -o ndjson --jq .id` and of `sessions tail --jq .type` at growing counts. Flat figures mean
 * constant memory; times are printed, not judged. Run: node bench/jq-rss.mjs   (ITEMS=200000 EVENTS=200000)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { peakRss } from './lib/measure.mjs';
import { privateSvc } from './lib/private-svc.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ITEMS = Number(process.env.ITEMS ?? 200_000);
const EVENTS = Number(process.env.EVENTS ?? 200_000);
const node = process.execPath;

const { svcBin, emuEnv, close } = await privateSvc(root, 'jq-bench', 'sk_jq_bench');
const env = { PATH: process.env.PATH, HOME: process.env.HOME, SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-jq-bench-')), ...emuEnv };
const seed = async (body) => {
  const post = () =>
    fetch(emuEnv.SVC_BASE_URL + '/_emulator/seed', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  // A kept-alive connection the emulator closed while a run took its time: once more on a new one.
  const res = await post().catch(() => post());
  if (!res.ok) throw new Error(`seed: ${res.status} ${await res.text()}`);
  return res.json();
};
const steps = (n) => [Math.round(n / 20), Math.round(n / 4), n];

try {
  await seed({ agents: ITEMS });
  for (const limit of steps(ITEMS)) {
    const m = peakRss(node, [svcBin, 'agents', 'list', '--all', '--page-size', '1000', '--limit', String(limit), '-o', 'ndjson', '--jq', '.id'], env);
    console.log(`list --all -o ndjson --jq .id, ${limit} items: peak RSS ${m.mib.toFixed(0)} MiB, ${m.ms.toFixed(0)} ms`);
  }
  for (const events of steps(EVENTS)) {
    const { session_id: sid } = await seed({ session_events: events });
    const m = peakRss(node, [svcBin, 'sessions', 'tail', sid, '--no-live', '--cursor', '0', '--until', 'idle', '--jq', '.type'], env);
    console.log(`tail --jq .type, ${events} events: peak RSS ${m.mib.toFixed(0)} MiB, ${m.ms.toFixed(0)} ms`);
  }
} finally {
  close();
}
