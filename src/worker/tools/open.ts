import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { ToolError } from './result';

/** Largest file `edit` and `grep` take whole: a search or an edit answers in seconds, not minutes. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

const code = (e: unknown) => (e as NodeJS.ErrnoException).code;

/**
 * Opens `path` without ever blocking and keeps it only when it is a regular file. Opening or reading a FIFO or a
 * device blocks a libuv thread for good, and Node then cannot even exit; O_NONBLOCK makes the open return at once,
 * and the type is checked on the open descriptor, so the file cannot be swapped between the check and the read.
 * `write` creates the file when missing and leaves its content to the caller (truncate after the check, not before).
 */
export async function openRegular(path: string, shown: string, mode: 'read' | 'write' | 'update'): Promise<FileHandle> {
  const flags = constants.O_NONBLOCK | (mode === 'read' ? constants.O_RDONLY : mode === 'update' ? constants.O_RDWR : constants.O_WRONLY | constants.O_CREAT);
  let handle: FileHandle;
  try {
    handle = await open(path, flags, 0o666);
  } catch (e) {
    // A FIFO that nobody reads refuses a non-blocking open for writing.
    if (code(e) === 'ENXIO') throw new ToolError(`${shown} is not a regular file (a FIFO or a device): refused`);
    if (code(e) === 'EISDIR') throw new ToolError(`${shown} is a directory`);
    if (code(e) === 'ENOENT') throw new ToolError(`${shown}: no such file`);
    throw new ToolError(`cannot open ${shown}: ${code(e) ?? (e as Error).message}`);
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw new ToolError(`${shown} is a directory`);
    if (!st.isFile()) throw new ToolError(`${shown} is not a regular file (a FIFO, a socket or a device): refused`);
    return handle;
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/** The whole of an open regular file, refused past `maxBytes` (the file can grow while it is read: counted as read). */
export async function readAll(handle: FileHandle, shown: string, maxBytes: number): Promise<Buffer> {
  const { size } = await handle.stat();
  if (size > maxBytes) throw new ToolError(`${shown} is ${size} bytes, over the ${maxBytes}-byte limit of this tool`);
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buf = Buffer.allocUnsafe(Math.min(Math.max(size - total, 0) + 1, 1 << 20));
    const { bytesRead } = await handle.read(buf, 0, buf.length, total);
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > maxBytes) throw new ToolError(`${shown} grew past the ${maxBytes}-byte limit of this tool while it was read`);
    chunks.push(buf.subarray(0, bytesRead));
  }
  return Buffer.concat(chunks, total);
}

/** Replaces the whole content of an open regular file. */
export async function replaceAll(handle: FileHandle, content: Buffer): Promise<void> {
  await handle.truncate(0);
  for (let at = 0; at < content.length;) {
    const { bytesWritten } = await handle.write(content, at, content.length - at, at);
    at += bytesWritten;
  }
}
