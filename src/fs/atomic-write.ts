/**
 * The one way svc writes a whole file: to a temp file beside it (created exclusively under a fresh name, so nothing
 * planted there is written through and parallel writers never share one), then renamed over it, so a reader or a
 * crash sees the old file or the new one, never half of one. Any failure removes the temp file.
 */
import { closeSync, constants, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** The new file's mode (less the umask): private unless the file is meant for others (a download, a package). */
  mode?: number;
  /** Flushed to disk before it takes the name: for state and credentials, which a crash must not leave empty. */
  fsync?: boolean;
  /** Never replaces: linked into place instead of renamed, so it fails with EEXIST when the file exists. */
  exclusive?: boolean;
}

export type AtomicData = string | Uint8Array;

const PRIVATE = 0o600;
const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** A hidden name beside `path`, the process's and random: not secret, so node:crypto (slow to load) is not needed. */
const tempBeside = (path: string): string => join(dirname(path), `.${basename(path)}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);

export function atomicWriteSync(path: string, data: AtomicData, o: AtomicWriteOptions = {}): void {
  const tmp = tempBeside(path);
  // EEXIST here is a file svc did not make: it is left alone.
  const fd = openSync(tmp, CREATE, o.mode ?? PRIVATE);
  try {
    try {
      writeFileSync(fd, data);
      if (o.fsync) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (o.exclusive) linkSync(tmp, path);
    else renameSync(tmp, path);
  } catch (e) {
    removeSync(tmp);
    throw e;
  }
  if (o.exclusive) removeSync(tmp);
}

/** As atomicWriteSync, off the main thread; `data` may be a stream, whose error (or a check it ends with) leaves nothing. */
export async function atomicWrite(path: string, data: AtomicData | AsyncIterable<Uint8Array>, o: AtomicWriteOptions = {}): Promise<void> {
  // Loaded here: a request command never loads node:fs/promises.
  const { link, open, rename, unlink } = await import('node:fs/promises');
  const remove = (p: string) => unlink(p).catch(() => undefined);
  const tmp = tempBeside(path);
  const fh = await open(tmp, CREATE, o.mode ?? PRIVATE);
  try {
    try {
      if (typeof data === 'string' || data instanceof Uint8Array) await fh.writeFile(data);
      else for await (const chunk of data) for (let at = 0; at < chunk.length;) at += (await fh.write(chunk, at)).bytesWritten;
      if (o.fsync) await fh.sync();
    } finally {
      await fh.close();
    }
    if (o.exclusive) await link(tmp, path);
    else await rename(tmp, path);
  } catch (e) {
    await remove(tmp);
    throw e;
  }
  if (o.exclusive) await remove(tmp);
}

function removeSync(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // never made, or gone already
  }
}
