import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { UsageError } from '../errors';
import { zipArchive } from '../zip';

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
  const paths: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) paths.push(relative(folder, p).split(sep).join('/'));
    }
  };
  walk(folder);
  if (paths.length === 0) throw new UsageError(`${shown}: the skill folder is empty`);
  paths.sort();
  const zip = zipArchive(paths.map((p) => [p, readFileSync(join(folder, p))]));
  return { zip, sha256: createHash('sha256').update(zip).digest('hex'), files: paths.length };
}
