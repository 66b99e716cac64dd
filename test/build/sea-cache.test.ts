// Issue 45 item 25: the executable's build cache (node_modules/.cache/svc-sea) is checked against the pinned
// integrity on every use, not only when it was filled.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkedNode } from '../../scripts/sea.mjs';

/** A cache folder holding a tarball shaped like a Node build's package, and its integrity. */
function cache(): { dir: string; integrity: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sea-cache-'));
  const src = mkdtempSync(join(tmpdir(), 'svc-sea-src-'));
  mkdirSync(join(src, 'package', 'bin'), { recursive: true });
  writeFileSync(join(src, 'package', 'bin', 'node'), 'the real node\n', { mode: 0o755 });
  execFileSync('tar', ['-czf', join(dir, 'node-x.tgz'), '-C', src, 'package']);
  const integrity = `sha512-${createHash('sha512')
    .update(readFileSync(join(dir, 'node-x.tgz')))
    .digest('base64')}`;
  return { dir, integrity };
}

describe('the SEA build cache (issue 45 item 25)', () => {
  it('every use checks the kept tarball and takes the binary out of it afresh: a changed binary is replaced', () => {
    const { dir, integrity } = cache();
    const binary = checkedNode(dir, 'node-x.tgz', integrity, 'node')!;
    expect(readFileSync(binary, 'utf8')).toBe('the real node\n');
    writeFileSync(binary, 'a planted node\n');
    expect(readFileSync(checkedNode(dir, 'node-x.tgz', integrity, 'node')!, 'utf8')).toBe('the real node\n');
  });

  it('a tarball changed since it was fetched, or none, is no cache: undefined (fetched again)', () => {
    const { dir, integrity } = cache();
    appendFileSync(join(dir, 'node-x.tgz'), 'x');
    expect(checkedNode(dir, 'node-x.tgz', integrity, 'node')).toBeUndefined();
    expect(checkedNode(mkdtempSync(join(tmpdir(), 'svc-sea-empty-')), 'node-x.tgz', integrity, 'node')).toBeUndefined();
  });
});
