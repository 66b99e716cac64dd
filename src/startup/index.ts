/**
 * What bin/svc.js runs before the command tree loads (not for the bare `--version`): a code cache for svc's own code,
 * Node's own from 22 on, startup/compile-cache.ts on Node 20, in a folder only the user can write (cache-folder.ts).
 * No V8 flag is set here (startup/v8-flags.ts says why).
 */
import { mkdirSync } from 'node:fs';
import { installCompileCache, type ModuleClass } from './compile-cache';
import { inFolder, openOwnFolders } from './cache-folder';
import { beforeFlagSwitch } from './v8-flags';
import { cacheRoot } from '../config/paths';
import { SVC_VERSION } from '../version';

/** For test/startup/heap-growing.test.ts: the flags a long run sets, from the built package. */
export { applyHeavyRunFlags } from './v8-flags';

/** node:module from Node 22.1 on (@types/node is Node 20's). */
interface NodeModule22 {
  enableCompileCache?: (dir: string) => unknown;
  flushCompileCache?: () => void;
}

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
  // Node 22.1+ (node:module gains enableCompileCache only once the public module loads: on Node 20 that costs start-up).
  if (Number(process.versions.node.split('.')[0]) >= 22) {
    const nodeModule = process.getBuiltinModule('node:module') as NodeModule22;
    nodeModule.enableCompileCache?.(inFolder(folder, '.'));
    // Written before a heavy run's V8 flags, under which the next run (starting without) would refuse it (22.10+).
    beforeFlagSwitch(() => nodeModule.flushCompileCache?.());
  } else installCompileCache(Module, codeDir, folder);
}
