/**
 * --jq over long streams, on a private bundle (the shared dist/ is left alone): peak RSS of
 * `agents list --all -o ndjson --jq .id` and of `sessions tail --jq .type` at growing counts. Flat figures mean
 * constant memory; times are printed, not judged. Run: node bench/jq-rss.mjs   (ITEMS=200000 EVENTS=200000)
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from '../scripts/bundle.mjs';
import { peakRss } from './lib/measure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ITEMS = Number(process.env.ITEMS ?? 200_000);
const EVENTS = Number(process.env.EVENTS ?? 200_000);
const node = process.execPath;

// Inside node_modules so the bundle's external packages (jq-web) resolve.
const work = join(root, 'node_modules', '.cache', `jq-bench-${process.pid}`);
mkdirSync(join(work, 'bin'), { recursive: true });
copyFileSync(join(root, 'bin', 'svc.js'), join(work, 'bin', 'svc.js'));
await bundle(join(work, 'dist'), 'error');
const svcBin = join(work, 'bin', 'svc.js');

const emulator = spawn(node, [svcBin, 'emulator', '--port', '0', '--api-key', 'sk_jq_bench'], { stdio: ['ignore', 'pipe', 'ignore'] });
const emuEnv = await new Promise((resolve, reject) => {
  let text = '';
  emulator.stdout.on('data', (d) => {
    text += d;
    const url = /SVC_BASE_URL=(\S+)/.exec(text)?.[1];
    if (url) resolve({ SVC_BASE_URL: url, SVC_API_KEY: 'sk_jq_bench' });
  });
  emulator.on('exit', (c) => reject(new Error(`emulator exited ${c}`)));
});
const env = { PATH: process.env.PATH, HOME: process.env.HOME, SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-jq-bench-')), ...emuEnv };
const seed = async (body) => {
  const res = await fetch(emuEnv.SVC_BASE_URL + '/_emulator/seed', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
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
  emulator.kill();
  rmSync(work, { recursive: true, force: true });
}
