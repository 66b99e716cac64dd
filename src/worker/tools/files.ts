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

/** A glob (`*`, `**`, `?`, `[...]`, `{a,b}`) as an anchored regular expression over `/`-separated paths. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) re += '|';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) re += '\\[';
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else re += c.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${re}${')'.repeat(braces)}$`);
}
