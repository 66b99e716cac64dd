// `npm run demo` and the tests' setup: runs `npm run build` (scripts/build.mjs) when dist/ is missing or older than
// what it is built from (src/, scripts/, package.json, package-lock.json), so a fresh clone needs no build step of its own.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Written by scripts/build.mjs when a build completes: its time is the build's. */
export const STAMP = join(root, 'dist', '.build-stamp');
const SOURCES = ['src', 'scripts', 'package.json', 'package-lock.json'];

/** The newest modification time (ms) of `path`, a file or a folder walked whole. */
function newest(path) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), st.mtimeMs);
}

/** Whether dist/ needs a build: no stamp, or a source newer than it. */
export function buildIsStale() {
  const built = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs;
  return built === undefined || SOURCES.some((s) => newest(join(root, s)) > built);
}

/** Builds when stale; throws when the build fails. */
export function ensureBuilt() {
  if (!buildIsStale()) return;
  process.stderr.write('svc: building dist/ (missing or older than the sources)\n');
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`npm run build failed (${r.status ?? r.signal})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    ensureBuilt();
  } catch (err) {
    process.stderr.write(`svc: ${err.message}\n`);
    process.exit(1);
  }
}
