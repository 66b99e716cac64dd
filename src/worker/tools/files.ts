import picomatch from 'picomatch';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** Folders never searched: version-control internals. */
const SKIP = new Set(['.git']);

/**
 * Every regular file under `dir` (a real path inside `workdir`), as paths relative to `workdir` with `/`.
 * Linked folders are not entered; a linked file is listed only when its target stays inside the workdir.
 */
export async function* walk(workdir: string, dir: string, signal: AbortSignal): AsyncGenerator<string> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    if (signal.aborted) return;
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP.has(e.name)) yield* walk(workdir, full, signal);
    } else if (e.isFile()) {
      yield toPosix(relative(workdir, full));
    } else if (e.isSymbolicLink() && (await linkedFileInside(workdir, full))) {
      yield toPosix(relative(workdir, full));
    }
  }
}

async function linkedFileInside(workdir: string, link: string): Promise<boolean> {
  try {
    const real = await realpath(link);
    return real.startsWith(workdir + sep) && (await lstat(real)).isFile();
  } catch {
    return false;
  }
}

const toPosix = (p: string) => p.split(sep).join('/');

/**
 * A glob (`*`, `**`, `?`, `[...]`, `{a,b}`) as a test of `/`-separated paths, by picomatch (the paths are already
 * `/`-separated on every platform); a leading dot is matched like any other character, as the tools always did.
 */
export function globMatcher(glob: string): (path: string) => boolean {
  // `[!…]` negates a class in the shell's globs, as `[^…]` does; picomatch reads only the second.
  return picomatch(glob.replace(/(?<!\\)\[!/g, '[^'), { dot: true, windows: false });
}
