import { lstatSync, readlinkSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Where `-O PATH` puts bytes, as `curl -o` users expect: a symlink is followed to its target (which is replaced
 * atomically when it is a regular file or does not exist yet), and a device, FIFO or socket (`/dev/null`,
 * `/dev/stdout`) is written straight into, never replaced.
 */
export type OutPath = { kind: 'file'; target: string } | { kind: 'special'; path: string } | { kind: 'dir'; path: string };

const MAX_LINKS = 40;

/** Classifies an absolute path; the target of a dangling symlink is where a new file is created. */
export function outPath(path: string): OutPath {
  const st = stat(path);
  if (st?.isDirectory()) return { kind: 'dir', path };
  if (st && !st.isFile()) return { kind: 'special', path };
  return { kind: 'file', target: linkTarget(path) };
}

/** The path with every symlink at its end followed, even when the last one points nowhere yet. */
function linkTarget(path: string): string {
  let p = path;
  for (let i = 0; i < MAX_LINKS; i++) {
    let l: Stats;
    try {
      l = lstatSync(p);
    } catch {
      return p;
    }
    if (!l.isSymbolicLink()) return p;
    p = resolve(dirname(p), readlinkSync(p));
  }
  return p;
}

function stat(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** One line for a failed write: the reason in words, then the code (`ENOSPC` on /dev/full). */
export function writeFailure(shown: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const why = code ? REASONS[code] : undefined;
  return `cannot write ${shown}: ${why ? `${why} (${code})` : (code ?? (e as Error).message)}`;
}

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EISDIR: 'it is a directory',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
  EIO: 'input/output error',
  EFBIG: 'file too large',
};
