/**
 * `sessions list --status running --all` over N sessions (none running: the cost is the scan) against paging the
 * raw list with the same page size (`svc api GET /v1/sessions --paginate` would buffer nothing either; the floor is
 * a node script paging with fetch and discarding): wall time and peak RSS.
 * Run: node bench/list-select.mjs   (N=100000 ROUNDS=3; sessions are made through the API, 4 in flight, so a large
 * N takes minutes to set up)
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleaved } from './lib/measure.mjs';
import { fleet } from './lib/fleet.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.N ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const node = process.execPath;
const floor = join(tmpdir(), `list-floor-${process.pid}.mjs`);
writeFileSync(
  floor,
  `const [base, key] = process.argv.slice(2);
const headers = { authorization: 'Bearer ' + key, 'svc-api-version': '2026-09-01-beta' };
let token, n = 0;
do {
  const page = await (await fetch(base + '/v1/sessions?page_size=1000' + (token ? '&page_token=' + token : ''), { headers })).json();
  for (const s of page.items) if (s.status === 'running') n++;
  token = page.next_page_token;
} while (token);
process.stdout.write(n + '\\n');
`,
);
const f = await fleet(root, 'list-bench');
try {
  await f.sessions(N, { run: 'list' }, 8);
  const r = interleaved(ROUNDS, {
    svc: { cmd: node, args: [f.svcBin, 'sessions', 'list', '--status', 'running', '--all', '--page-size', '1000', '-o', 'ndjson'], env: f.env },
    floor: { cmd: node, args: [floor, f.emuEnv.SVC_BASE_URL, f.emuEnv.SVC_API_KEY], env: f.env },
  });
  console.log(`sessions list --status running --all over ${N} sessions (pages of 1000), median of ${ROUNDS}`);
  console.log(`  svc    ${r.ms('svc').toFixed(0)} ms, peak RSS ${r.mib('svc').toFixed(1)} MiB (max ${r.maxMib('svc').toFixed(1)}; goal <= 100)`);
  console.log(`  floor  ${r.ms('floor').toFixed(0)} ms, peak RSS ${r.mib('floor').toFixed(1)} MiB`);
  console.log(`  svc / floor = ${r.ratio('svc', 'floor').toFixed(2)}x (goal <= 1.5x)`);
} finally {
  f.close();
}
