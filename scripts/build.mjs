// `npm run build` / `prepack`: the bundle into dist/, then the man pages from its command tree into dist/man/.
// `--if-stale` (`npm run demo`, the tests' setup): only when dist/ is missing or older than what it is built from, so
// a fresh clone needs no build step of its own. Each build stamps dist/ with the time it began.
import { mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

/** The newest modification time (ms) under `path`, a file or a folder walked whole; 0 when absent. */
const newest = (path) => {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return st?.mtimeMs ?? 0;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), st.mtimeMs);
};

/** Builds dist/, or with `ifStale` only when it is missing or older than the sources (said on stderr). */
export async function build({ ifStale = false } = {}) {
  const built = statSync(join(dist, '.build-stamp'), { throwIfNoEntry: false })?.mtimeMs ?? -1;
  if (ifStale && !['src', 'scripts', 'package.json', 'package-lock.json'].some((s) => newest(join(root, s)) > built)) return;
  if (ifStale) process.stderr.write('svc: building dist/ (missing or older than the sources)\n');
  const started = new Date();
  await bundle(dist);
  // SOURCE_DATE_EPOCH (reproducible builds) dates the pages; else today.
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  const date = new Date(Number.isFinite(epoch) && epoch > 0 ? epoch * 1000 : Date.now()).toISOString().slice(0, 10);
  const pages = await createRequire(import.meta.url)(join(dist, 'cli.js')).manPages(date);
  mkdirSync(join(dist, 'man'), { recursive: true });
  for (const [name, text] of Object.entries(pages)) writeFileSync(join(dist, 'man', name), text);
  // Last, so an interrupted build leaves none, dated when the build began (a source saved meanwhile is newer).
  writeFileSync(join(dist, '.build-stamp'), `${started.toISOString()}\n`);
  utimesSync(join(dist, '.build-stamp'), started, started);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build({ ifStale: process.argv.includes('--if-stale') }).catch((err) => {
    process.stderr.write(`svc: the build failed: ${err.message.split('\n')[0]}\n`);
    process.exit(1);
  });
}
