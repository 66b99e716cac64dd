/**
 * What bin/svc.js runs before the command tree loads (not for the bare `--version`): a code cache for svc's own code
 * (startup/compile-cache.ts), in a folder only the user can write (cache-folder.ts).
 * No V8 flag is set here (startup/v8-flags.ts says why).
 */
import { mkdirSync } from 'node:fs';
import { installCompileCache, type ModuleClass } from './compile-cache';
import { openOwnFolders } from './cache-folder';
import { cacheRoot } from '../config/paths';
import { SVC_VERSION } from '../version';

/** For test/startup/heap-growing.test.ts: the flags a long run sets, from the built package. */
export { applyHeavyRunFlags } from './v8-flags';

/** `Module` is Node's CommonJS module class (bin/'s `module.constructor`). */
export function prepareStartup(Module: ModuleClass, codeDir: string, env: Record<string, string | undefined>): void {
  // Node's own switch for its compile cache turns svc's off too.
  if (env.NODE_DISABLE_COMPILE_CACHE) return;
  const root = cacheRoot(env);
  if (!root) return;
  try {
    mkdirSync(root, { mode: 0o700 });
  } catch {
    // there already, or not to be made: opening it decides
  }
  // One folder per install: two installs share chunk names, and each would remove the other's entries as older.
  const install = `svc-${SVC_VERSION}-node-${process.version}-${process.arch}`;
  const folder = openOwnFolders(root, ['svc', 'compile-cache', install, encodeURIComponent(codeDir)]);
  if (folder === undefined) return;
  // svc's own on every Node, not Node's (module.enableCompileCache, 22.1+): Node's keeps an entry per file and hashes
  // each source as it loads; svc's reads the request path's chunks (dist/core.js) as one (scripts/build/PERF.md).
  installCompileCache(Module, codeDir, folder);
}
