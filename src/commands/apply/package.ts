import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { crc32 } from 'node:zlib';
import { UsageError } from '../../errors';

export interface SkillPackage {
  zip: Buffer;
  sha256: string;
  files: number;
}

/**
 * A skill folder as a zip archive whose bytes depend on the content only: entries sorted by path, stored
 * (not deflated: deflate output may change with zlib), no timestamps (1980-01-01). So its SHA-256 is the
 * content hash that tells apply whether to publish a new version.
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
  const zip = storedZip(paths.map((p) => [p, readFileSync(join(folder, p))]));
  return { zip, sha256: createHash('sha256').update(zip).digest('hex'), files: paths.length };
}

const DOS_DATE_1980 = 0x21; // 1980-01-01, time 00:00

function storedZip(entries: Array<[string, Buffer]>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const n = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(DOS_DATE_1980, 12);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    local.copy(central, 6, 4, 30);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    centrals.push(central, n);
    offset += 30 + n.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
