import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors';

/** Resolves `-O FILE` before any request, so a path that cannot be written is exit 2 with nothing sent. */
export function transcriptTarget(cwd: string, file: string): string {
  if (file === '') throw new UsageError('-O needs a file name');
  const target = resolve(cwd, file);
  if (kind(target) === 'dir') throw new UsageError(`cannot write ${file}: it is a directory`);
  if (kind(dirname(target)) !== 'dir') throw new UsageError(`cannot write ${file}: no such directory ${dirname(file)}`);
  return target;
}

/** Writes a temp file beside the target and renames it over: a reader never sees half a transcript. */
export function writeFileAtomic(target: string, text: string): void {
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new UsageError(`cannot write ${target}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function kind(path: string): 'dir' | 'file' | undefined {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}
