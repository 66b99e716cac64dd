// `npm run demo` and the tests' setup: `npm run build` when dist/ is missing or older than what it is built from, so
// a fresh clone needs no build step of its own. scripts/build.mjs stamps dist/ with the time each build began.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The newest modification time (ms) under `path`, a file or a folder walked whole; 0 when absent. */
const newest = (path) => {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return st?.mtimeMs ?? 0;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), st.mtimeMs);
};

/** Builds when stale; throws when the build fails. */
export function ensureBuilt() {
  const built = statSync(join(root, 'dist', '.build-stamp'), { throwIfNoEntry: false })?.mtimeMs ?? -1;
  if (!['src', 'scripts', 'package.json', 'package-lock.json'].some((s) => newest(join(root, s)) > built)) return;
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
