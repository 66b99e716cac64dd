import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { UsageError } from '../runtime/errors';
import { zipArchive } from '../fs/zip';

export interface SkillPackage {
  zip: Buffer;
  sha256: string;
  files: number;
}

/**
 * A skill folder as a zip archive whose bytes depend on the content only (entries sorted by path, stored,
 * no timestamps): its SHA-256 is the content hash that tells apply whether to publish a new version.
 */
export function packageFolder(folder: string, shown: string): SkillPackage {
  let st;
  try {
    st = statSync(folder);
  } catch {
    throw new UsageError(`${shown}: no such folder`);
  }
  if (!st.isDirectory()) throw new UsageError(`${shown}: a Skill's path must be a folder`);
  const files: Array<[string, Buffer]> = [];
  const refuse = (p: string, why: string) => new UsageError(`${shown}: ${relative(folder, p).split(sep).join('/')}: ${why}`);
  const code = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  // A symlink to a file is followed (its content is packaged under the link's name); one to a folder is
  // refused, as it may loop or reach outside; anything else that is not a regular file is refused.
  const walk = (dir: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      throw refuse(dir, `cannot read folder: ${code(e)}`);
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        walk(p);
        continue;
      }
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        let target;
        try {
          target = statSync(p);
        } catch (err) {
          throw refuse(p, `a symlink that leads nowhere: ${code(err)}`);
        }
        if (!target.isFile()) throw refuse(p, 'a symlink to a folder or special file: a skill packages regular files only');
        isFile = true;
      }
      if (!isFile) throw refuse(p, 'not a regular file (a FIFO, socket or device): a skill packages regular files only');
      try {
        files.push([relative(folder, p).split(sep).join('/'), readFileSync(p)]);
      } catch (err) {
        throw refuse(p, `cannot read: ${code(err)}`);
      }
    }
  };
  walk(folder);
  if (files.length === 0) throw new UsageError(`${shown}: the skill folder is empty`);
  files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const zip = zipArchive(files);
  return { zip, sha256: createHash('sha256').update(zip).digest('hex'), files: files.length };
}
