/**
 * Folders that hold code svc runs, opened so no other local user can swap them: each level through the descriptor of
 * the one above (Linux's /proc/self/fd, openat by another name), never following a link, each checked on the open
 * descriptor to be the user's own and writable by no one else. When in doubt (another system, any check failing),
 * no folder.
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';

/** A name inside the folder held open as `fd`, resolved from that folder whatever happened to its path since. */
export const inFolder = (fd: number, name: string): string => `/proc/self/fd/${fd}/${name}`;

/** Opens `root`, then each of `names` below it (made 0700 when missing); the last one's descriptor, or undefined. */
export function openOwnFolders(root: string, names: string[]): number | undefined {
  if (process.platform !== 'linux' || process.getuid === undefined) return undefined;
  let fd = openOwn(root);
  for (const name of names) {
    if (fd === undefined) return undefined;
    const path = inFolder(fd, name);
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        closeSync(fd);
        return undefined;
      }
    }
    const next = openOwn(path);
    closeSync(fd);
    fd = next;
  }
  return fd;
}

function openOwn(path: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory() && st.uid === process.getuid!() && (st.mode & 0o022) === 0) return fd;
  } catch {
    // fall through: no folder
  }
  closeSync(fd);
  return undefined;
}

/** A file's bytes in the folder held open as `folder`, read only if it is a regular file of the user's own; undefined otherwise. */
export function readOwnFile(folder: number, entry: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(inFolder(folder, entry), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined; // not cached yet, or not a file svc wrote
  }
  try {
    const st = fstatSync(fd);
    return st.isFile() && st.uid === process.getuid?.() ? readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a private (0600) file in the folder held open as `folder`: to a fresh temp name, then renamed, so a parallel run
 * never reads half of it; a failure leaves nothing. As fs/atomic-write.ts does, written apart: the launcher loads this
 * before every command, and importing that module costs a chunk of its own there (~1 ms).
 */
export function writeOwnFile(folder: number, entry: string, data: Buffer | string): void {
  const tmp = inFolder(folder, `${entry}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`);
  try {
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      writeFileSync(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, inFolder(folder, entry));
  } catch {
    // a full disk or a read-only cache: the next run does the work again
    try {
      unlinkSync(tmp);
    } catch {
      // never made
    }
  }
}
