/**
 * A V8 code cache for the bundle's CommonJS chunks on Node 20, which has no `module.enableCompileCache`: compiling
 * svc's own code is the largest single cost of a command's start (bench/run.mjs). Each chunk's compiled code is kept
 * in an entry named after that very file, and handed back to V8 on the next run.
 * V8 refuses an entry made under other flags, but of the source it checks only the length: an entry for another
 * text of the same length would run that other code. So an entry's name holds the file's identity (name, size,
 * mtime, inode), which a rebuild or an upgrade changes, and older entries of the same file are removed.
 * A refused entry is compiled as before and written again at exit, to a temp name and renamed, so parallel runs
 * never read half an entry.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { Script } from 'node:vm';

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
 * user's own alone, is no cache. The chunks
 * hold no import() (scripts/commonjs-chunks.mjs makes each a require()), which a Script compiled here could not run.
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
    if (!filename.startsWith(inside)) return compile.call(this, content, filename);
    const st = statSync(filename);
    const file = join(cacheDir, `${basename(filename)}@${st.size}-${st.mtimeMs}-${st.ino}`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(file);
    } catch {
      // not cached yet
    }
    const script = new Script(M.wrap(content), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) stale.push({ file, script });
    const mod = this;
    const require = (id: string) => mod.require(id);
    require.resolve = (request: string, options?: unknown) => M._resolveFilename(request, mod, false, options);
    require.cache = M._cache;
    require.main = process.mainModule;
    const run = script.runInThisContext() as (...args: unknown[]) => unknown;
    return run.call(mod.exports, mod.exports, require, mod, filename, dirname(filename));
  };
  // At exit, the entries also hold the functions this run compiled lazily: the next run compiles none of them.
  process.once('exit', () => {
    if (stale.length > 0) removeOlder(cacheDir, stale.map((s) => basename(s.file)));
    for (const { file, script } of stale) {
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, file);
      } catch {
        // a full disk or a read-only cache: the next run compiles again
      }
    }
  });
}

/** Removes the entries of the same files as `entries` made for other versions of them (a rebuild, an upgrade). */
function removeOlder(cacheDir: string, entries: string[]): void {
  const current = new Set(entries);
  const fileOf = (entry: string) => entry.slice(0, entry.lastIndexOf('@'));
  const files = new Set(entries.map(fileOf));
  try {
    for (const entry of readdirSync(cacheDir)) {
      if (!current.has(entry) && files.has(fileOf(entry))) unlinkSync(join(cacheDir, entry));
    }
  } catch {
    // another run removed it first
  }
}
