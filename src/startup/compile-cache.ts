/**
 * A V8 code cache for the bundle's CommonJS chunks on Node 20, which has no `module.enableCompileCache`: compiling
 * svc's own code is the largest single cost of a command's start (bench/run.mjs). Each chunk's compiled code is kept
 * in an entry named after that very file, and handed back to V8 on the next run.
 * V8 refuses an entry made under other flags, but of the source it checks only the length: an entry for another
 * text of the same length would run that other code. So an entry's name holds the file's identity (its path under
 * the bundle, size, mtime, inode), which a rebuild or an upgrade changes; entries that no longer match a file are
 * removed whenever a run writes new ones.
 * A missing or refused entry is compiled as before and written after the run's first second or at its exit, whichever
 * comes first, to a temp name and renamed, so parallel runs never read half an entry.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { Script } from 'node:vm';

/** How the build marks a chunk to leave to Node (the live view's renderer: scripts/bundle.mjs says why). */
const NO_COMPILE_CACHE = '"use strict";/* svc: no compile cache */';

interface Compilable {
  _compile(content: string, filename: string): unknown;
  require(id: string): unknown;
  exports: unknown;
}

/** Node's CommonJS `Module` class, as bin/ has it (`module.constructor`): the public node:module loads more. */
export interface ModuleClass {
  wrap(content: string): string;
  prototype: Compilable;
  _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
  _cache: unknown;
}

/**
 * Caches every chunk under `codeDir` in `cacheDir` (made 0700); a cache that cannot be made, or that is not the
 * user's own alone, is no cache. The chunks hold no import() (scripts/commonjs-chunks.mjs makes each a require()),
 * which a Script compiled here could not run.
 */
export function installCompileCache(M: ModuleClass, codeDir: string, cacheDir: string): void {
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    // An entry is code V8 runs: none from a folder that someone else owns or may write to.
    const st = statSync(cacheDir);
    if (st.uid !== process.getuid?.() || (st.mode & 0o022) !== 0) return;
  } catch {
    return;
  }
  const inside = codeDir.endsWith(sep) ? codeDir : codeDir + sep;
  const stale: { file: string; script: Script }[] = [];
  const compile = M.prototype._compile;
  M.prototype._compile = function (this: Compilable, content: string, filename: string) {
    if (!filename.startsWith(inside) || content.startsWith(NO_COMPILE_CACHE)) return compile.call(this, content, filename);
    const file = join(cacheDir, entryName(relative(codeDir, filename), statSync(filename)));
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(file);
    } catch {
      // not cached yet
    }
    const script = new Script(M.wrap(content), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) stale.push({ file, script });
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the module the wrapped code runs as, captured for its require
    const mod = this;
    const require = (id: string) => mod.require(id);
    require.resolve = (request: string, options?: unknown) => M._resolveFilename(request, mod, false, options);
    require.cache = M._cache;
    require.main = process.mainModule;
    const run = script.runInThisContext() as (...args: unknown[]) => unknown;
    return run.call(mod.exports, mod.exports, require, mod, filename, dirname(filename));
  };
  // At exit, the entries also hold the functions this run compiled lazily: the next run compiles none of them. A
  // long run (the live view, a tail, a worker) writes them a second in, and lets the scripts go.
  const flush = () => {
    if (stale.length > 0) removeUnmatched(cacheDir, codeDir);
    for (const { file, script } of stale.splice(0)) {
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, file);
      } catch {
        // a full disk or a read-only cache: the next run compiles again
      }
    }
  };
  process.once('exit', flush);
  setTimeout(flush, 1000).unref();
}

const entryName = (path: string, st: { size: number; mtimeMs: number; ino: number }) => `${encodeURIComponent(path)}@${st.size}-${st.mtimeMs}-${st.ino}`;

/** Removes the entries that match no file of the bundle as it is now (a rebuild, an upgrade); temp files are left. */
function removeUnmatched(cacheDir: string, codeDir: string): void {
  let entries: string[];
  try {
    entries = readdirSync(cacheDir);
  } catch {
    return;
  }
  for (const entry of entries) {
    const at = entry.lastIndexOf('@');
    if (at < 0 || entry.endsWith('.tmp')) continue;
    const path = decodeURIComponent(entry.slice(0, at));
    let current: string | undefined;
    try {
      current = entryName(path, statSync(join(codeDir, path)));
    } catch {
      // the file is gone
    }
    if (current === entry) continue;
    try {
      unlinkSync(join(cacheDir, entry));
    } catch {
      // another run removed it first
    }
  }
}
