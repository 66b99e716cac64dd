/**
 * The pages `sessions list --status failed` reads over N sessions (docs/decisions/selection.md): the failed ones the
 * oldest (the last page, the worst case) or the newest, counted from `--debug`'s request lines, with the wall time.
 * Run: node bench/list-failed-pages.mjs   (N=10000 FAILED=5)
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fleet } from './lib/fleet.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.N ?? 10_000);
const FAILED = Number(process.env.FAILED ?? 5);
const f = await fleet(root, 'list-failed');
/** `n` sessions, the first `failed` of them ended in session.error. */
async function seed(n, failed) {
  const ids = await f.sessions(failed, { run: 'failed' }, 4);
  for (const id of ids)
    await f.api('POST', `/v1/sessions/${id}/events`, { events: [{ type: 'user.message', data: { content: [{ type: 'text', text: '/error model_error' }] } }] });
  await f.sessions(n - failed, { run: 'filler' }, 8);
  return ids;
}
function list(args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [f.svcBin, 'sessions', 'list', '--status', 'failed', '-q', '--debug', ...args], { env: f.env, encoding: 'utf8' });
  const ms = performance.now() - t0;
  // One `debug: > GET …/v1/sessions…` line per page requested (the `<` lines are the answers).
  const pages = r.stderr.split('\n').filter((l) => /^debug: > GET \S*\/v1\/sessions(\?|\s|$)/.test(l)).length;
  return { found: r.stdout.trim().split('\n').filter(Boolean).length, pages, ms, code: r.status };
}
try {
  const failed = await seed(N, FAILED);
  console.log(`${N} sessions, ${failed.length} failed (the oldest: the last page)`);
  for (const args of [[], ['--all'], ['--limit', '1'], ['--page-size', '50'], ['--page-size', '50', '--limit', '1']]) {
    const r = list(args);
    console.log(`  sessions list --status failed ${args.join(' ')}: ${r.found} found, ${r.pages} pages read, ${r.ms.toFixed(0)} ms, exit ${r.code}`);
  }
} finally {
  f.close();
}
