/**
 * A V8 code cache for the bundle's CommonJS chunks, on every Node (Node 22's own, `module.enableCompileCache`, keeps an
 * entry per file and hashes each source as it loads: slower, scripts/build/PERF.md): compiling svc's own code is the
 * largest single cost of a command's start. The chunks of the command tree and those a request command adds are two
 * files, dist/core.js and dist/core-request.js (tables of their functions, scripts/bundle.mjs), with an entry each;
 * every other chunk's compiled code is kept in an entry named after that very file. Each is handed back to V8 on the
 * next run.
 * V8 refuses an entry made under other flags, but of the source it checks only the length: an entry for another
 * text of the same length would run that other code. So an entry's name holds the file's identity (its path under
 * the bundle, size, mtime, inode), which a rebuild or an upgrade changes, and an entry is code svc runs: every folder
 * from the user's cache root down is opened one level at a time through the descriptor of the one above, never
 * following a link, and must be the user's own and writable by no one else (cache-folder.ts). Entries are read and
 * written through the last folder's descriptor, never by a path checked earlier.
 * A missing or refused entry is compiled as before and written after the run's first second or at its exit, whichever
 * comes first, to a temp name and renamed, so parallel runs never read half an entry.
 * A chunk's require of another file of the bundle (`./chunk-….js`) loads it straight from its path: Node's resolution
 * (a stat, a realpath, the nearest package.json, the node_modules paths) costs about 0.3 ms a file, and a request
 * command loads some 60 chunks (scripts/build/PERF.md).
 */
import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { Script } from 'node:vm';
import { inFolder, readOwnFile, writeOwnFile } from './cache-folder';
import { beforeFlagSwitch } from './v8-flags';

interface Compilable {
  _compile(content: string, filename: string, ...rest: unknown[]): unknown;
  require(id: string): unknown;
  exports: unknown;
  filename: string | null;
  paths: string[];
  loaded: boolean;
}

/** Node's CommonJS `Module` class, as bin/ has it (`module.constructor`): the public node:module loads more. */
export interface ModuleClass {
  new (id: string, parent: Compilable): Compilable;
  wrap(content: string): string;
  prototype: Compilable;
  _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
  _nodeModulePaths(from: string): string[];
  _cache: Record<string, Compilable | undefined>;
}

/**
 * Caches every chunk under `codeDir` in the folder held open as `folder` (cache-folder.ts). The chunks hold no
 * import() (scripts/commonjs-chunks.mjs makes each a require()), which a Script compiled here could not run.
 */
export function installCompileCache(M: ModuleClass, codeDir: string, folder: number): void {
  const inside = codeDir.endsWith(sep) ? codeDir : codeDir + sep;
  const stale: { entry: string; script: Script }[] = [];
  const compileCached = (source: string, filename: string): Script => {
    const entry = entryName(relative(codeDir, filename), statSync(filename));
    const cachedData = readOwnFile(folder, entry);
    const script = new Script(source, { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) stale.push({ entry, script });
    return script;
  };
  const linked = linkedChunks(codeDir, compileCached);
  const compile = M.prototype._compile;
  M.prototype._compile = function (this: Compilable, content: string, filename: string, ...rest: unknown[]) {
    // Node 22+ passes the module's format too.
    if (!filename.startsWith(inside)) return compile.call(this, content, filename, ...rest);
    const run = linked(relative(codeDir, filename)) ?? (compileCached(M.wrap(content), filename).runInThisContext() as ChunkFunction);
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the module the wrapped code runs as, captured for its require
    const mod = this;
    const here = dirname(filename);
    const require = (id: string) => {
      if (!BUNDLE_FILE.test(id)) return mod.require(id);
      const file = join(here, id);
      if (!file.startsWith(inside)) return mod.require(id);
      const loaded = M._cache[file];
      if (loaded) return loaded.exports;
      // A linked chunk's source is its function in a table: the empty text is never compiled.
      let source = '';
      try {
        if (!linked(relative(codeDir, file))) source = readFileSync(file, 'utf8');
      } catch {
        // Node's own require says what is missing
        return mod.require(id);
      }
      return loadChunk(M, mod, file, source);
    };
    require.resolve = (request: string, options?: unknown) => M._resolveFilename(request, mod, false, options);
    require.cache = M._cache;
    require.main = process.mainModule;
    return run.call(mod.exports, mod.exports, require, mod, filename, here);
  };
  // At exit, the entries also hold the functions this run compiled lazily: the next run compiles none of them. A
  // long run (the live view, a tail, a worker) writes them a second in, and lets the scripts go.
  const flush = () => {
    if (stale.length > 0) removeUnmatched(folder, codeDir);
    for (const { entry, script } of stale.splice(0)) writeOwnFile(folder, entry, script.createCachedData());
  };
  process.once('exit', flush);
  setTimeout(flush, 1000).unref();
  // Before a heavy run's V8 flags (a request's first connection, jq, the live view): entries made after would be
  // stamped with them, and refused by the next run, which starts without.
  beforeFlagSwitch(flush);
}

type ChunkFunction = (...args: unknown[]) => unknown;
/** A file of linked chunks (scripts/bundle.mjs): each chunk's function by its path under the bundle, and the next file's paths. */
interface LinkedTable {
  chunks: Record<string, ChunkFunction | undefined>;
  next: string[];
}

/**
 * The function of a linked chunk, or undefined: dist/core.js holds the chunks `svc --help` runs (the command tree),
 * dist/core-request.js those a request command adds; each file is read, and compiled with one entry, when a chunk of
 * it is first needed. A build without them links nothing.
 */
function linkedChunks(codeDir: string, compileCached: (source: string, filename: string) => Script): (key: string) => ChunkFunction | undefined {
  const load = (name: string): LinkedTable => {
    const file = join(codeDir, name);
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      return { chunks: {}, next: [] };
    }
    return compileCached(source, file).runInThisContext() as LinkedTable;
  };
  let tree: LinkedTable | undefined;
  let request: LinkedTable | undefined;
  return (key) => {
    tree ??= load('core.js');
    if (tree.chunks[key] || !tree.next.includes(key)) return tree.chunks[key];
    request ??= load('core-request.js');
    return request.chunks[key];
  };
}

/** A relative require of a file by its full name, as the bundle's chunks make them. */
const BUNDLE_FILE = /^\.\.?\/[^]*\.js$/;

/** What Node's Module.load does for a CommonJS file it has resolved: cached first, so a cycle sees partial exports. */
function loadChunk(M: ModuleClass, parent: Compilable, file: string, source: string): unknown {
  const child = new M(file, parent);
  child.filename = file;
  child.paths = M._nodeModulePaths(dirname(file));
  M._cache[file] = child;
  try {
    child._compile(source, file);
  } catch (err) {
    delete M._cache[file];
    throw err;
  }
  child.loaded = true;
  return child.exports;
}

const entryName = (path: string, st: { size: number; mtimeMs: number; ino: number }) => `${encodeURIComponent(path)}@${st.size}-${st.mtimeMs}-${st.ino}`;
/** What entryName makes, and nothing else: clean-up removes only these. */
const ENTRY = /^([A-Za-z0-9\-_.!~*'()%]+)@\d+-\d+(?:\.\d+)?-\d+$/;

/** Removes the entries that match no file of the bundle as it is now (a rebuild, an upgrade); nothing else is touched. */
function removeUnmatched(folder: number, codeDir: string): void {
  let entries: string[];
  try {
    entries = readdirSync(inFolder(folder, '.'));
  } catch {
    return;
  }
  for (const entry of entries) {
    const m = ENTRY.exec(entry);
    if (!m) continue;
    let current: string | undefined;
    try {
      current = entryName(decodeURIComponent(m[1]!), statSync(`${codeDir}${sep}${decodeURIComponent(m[1]!)}`));
    } catch {
      // the file is gone, or the name does not decode
    }
    if (current === entry) continue;
    try {
      unlinkSync(inFolder(folder, entry));
    } catch {
      // another run removed it first
    }
  }
}
