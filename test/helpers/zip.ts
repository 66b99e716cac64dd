import { zipArchive } from '../../src/fs/zip';

/** A zip archive of deflated entries, for tests that upload packages. */
export function zip(entries: Record<string, string | Buffer>): Buffer {
  return zipArchive(
    Object.entries(entries).map(([name, content]) => [name, Buffer.from(content)]),
    { deflate: true },
  );
}
