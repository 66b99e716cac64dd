import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../runtime/errors';
import { atomicWriteSync } from '../fs/atomic-write';
import { outPath, writeFailure } from './out-path';

/** Where `-O FILE` writes: a regular file (through symlinks, `target`) replaced atomically, or a device or FIFO. */
export interface TranscriptTarget {
  /** As given, for messages. */
  shown: string;
  kind: 'file' | 'special';
  /** The file to replace, or the device to write into. */
  path: string;
}

/** Resolves `-O FILE` before any request, so a path that cannot be written is exit 2 with nothing sent. */
export function transcriptTarget(cwd: string, file: string): TranscriptTarget {
  if (file === '') throw new UsageError('-O needs a file name');
  const o = outPath(resolve(cwd, file));
  if (o.kind === 'dir') throw new UsageError(`cannot write ${file}: it is a directory`);
  if (o.kind === 'special') return { shown: file, kind: 'special', path: o.path };
  if (!isDir(dirname(o.target))) throw new UsageError(`cannot write ${file}: no such directory ${dirname(o.target === resolve(cwd, file) ? file : o.target)}`);
  return { shown: file, kind: 'file', path: o.target };
}

/**
 * A regular file gets a temp file beside it renamed over it: a reader never sees half a transcript. A device or
 * FIFO (`/dev/stdout`) is written straight into.
 */
export async function writeFileAtomic(t: TranscriptTarget, text: string): Promise<void> {
  if (t.kind === 'special') {
    try {
      // Opened off the main thread: a FIFO with no reader yet must not freeze the process (Ctrl-C still works).
      await writeFile(t.path, text);
    } catch (e) {
      throw new UsageError(writeFailure(t.shown, e));
    }
    return;
  }
  try {
    // The user's own document, as any file they write: the umask decides who may read it.
    atomicWriteSync(t.path, text, { mode: 0o666 });
  } catch (e) {
    throw new UsageError(writeFailure(t.shown, e));
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
