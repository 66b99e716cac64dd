import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { ToolContext } from './context';
import { ToolError } from './result';

const code = (e: unknown) => (e as NodeJS.ErrnoException).code;

/**
 * The real path of `p` (relative to `workdir`, or absolute), refused unless it stays inside `workdir`
 * after every symbolic link is resolved. `workdir` must itself be a real path. A path that does not exist
 * yet is resolved through its deepest existing ancestor, so a write cannot escape through a linked folder.
 * `--unrestricted-paths` lifts the check: paths are only resolved against the workdir.
 */
export async function confine({ workdir, unrestrictedPaths }: Pick<ToolContext, 'workdir' | 'unrestrictedPaths'>, p: string): Promise<string> {
  if (p === '') throw new ToolError('path is empty');
  const target = resolve(workdir, p);
  if (unrestrictedPaths) return target;
  const missing: string[] = [];
  for (let at = target; ; at = dirname(at)) {
    let real: string;
    try {
      real = await realpath(at);
    } catch (e) {
      if (code(e) !== 'ENOENT' && code(e) !== 'ENOTDIR') throw new ToolError(`cannot resolve ${p}: ${code(e) ?? (e as Error).message}`);
      // A link whose target is missing would be followed by a write: refuse it rather than guess where it lands.
      if (await isLink(at)) throw new ToolError(`${p} goes through a dangling symbolic link`);
      if (dirname(at) === at) throw new ToolError(`cannot resolve ${p}`);
      missing.unshift(basename(at));
      continue;
    }
    const full = join(real, ...missing);
    if (full !== workdir && !full.startsWith(workdir.endsWith(sep) ? workdir : workdir + sep)) {
      throw new ToolError(`${p} is outside the workdir`);
    }
    return full;
  }
}

async function isLink(p: string): Promise<boolean> {
  try {
    return (await lstat(p)).isSymbolicLink();
  } catch {
    return false;
  }
}
