import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atomicWrite, atomicWriteSync } from '../../src/fs/atomic-write';
import { tempConfigDir } from '../helpers/cli';

const mode = (path: string) => statSync(path).mode & 0o777;
const CHUNK = 64 * 1024;

/** `count` chunks of one letter, yielded one at a time: the write takes many turns of the event loop. */
async function* letters(letter: string, count: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < count; i++) yield Buffer.alloc(CHUNK, letter);
}

describe('atomicWrite: the one way svc writes a whole file', () => {
  it('writes a new file private (0600) unless given a mode, and leaves nothing beside it', async () => {
    const dir = tempConfigDir();
    atomicWriteSync(join(dir, 'sync.json'), '{}');
    await atomicWrite(join(dir, 'async.json'), '{}');
    atomicWriteSync(join(dir, 'shared'), 'package', { mode: 0o644 });
    expect(mode(join(dir, 'sync.json'))).toBe(0o600);
    expect(mode(join(dir, 'async.json'))).toBe(0o600);
    expect(mode(join(dir, 'shared'))).toBe(0o644 & ~process.umask());
    expect(readdirSync(dir).sort()).toEqual(['async.json', 'shared', 'sync.json']);
  });

  it('replaces a file of another mode with a private one (the mode is the new file’s, not the old one’s)', () => {
    const dir = tempConfigDir();
    const file = join(dir, 'state.json');
    writeFileSync(file, 'old', { mode: 0o644 });
    atomicWriteSync(file, 'new', { fsync: true });
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(mode(file)).toBe(0o600);
  });

  it('a stream that fails half way leaves the old file intact and no temp file', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'download');
    writeFileSync(file, 'old');
    async function* cutOff(): AsyncGenerator<Uint8Array> {
      yield* letters('a', 4);
      throw new Error('connection lost');
    }
    await expect(atomicWrite(file, cutOff())).rejects.toThrow('connection lost');
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['download']);
  });

  it('a rename that fails (the name is a folder) leaves the folder as it was and no temp file, sync and async', async () => {
    const dir = tempConfigDir();
    mkdirSync(join(dir, 'taken'));
    writeFileSync(join(dir, 'taken', 'inside'), 'x');
    expect(() => atomicWriteSync(join(dir, 'taken'), 'data')).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    await expect(atomicWrite(join(dir, 'taken'), 'data')).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(dir)).toEqual(['taken']);
    expect(readdirSync(join(dir, 'taken'))).toEqual(['inside']);
  });

  it('a reader during many writes of two writers at once always sees one whole file, never half of one', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'state');
    atomicWriteSync(file, Buffer.alloc(8 * CHUNK, 'a'));
    let writing = true;
    const seen = new Set<string>();
    const reader = (async () => {
      let reads = 0;
      while (writing || reads === 0) {
        const text = readFileSync(file, 'latin1');
        seen.add(`${text.length}:${text[0]}:${text.at(-1)}:${/^(a+|b+)$/.test(text)}`);
        reads++;
        await new Promise((r) => setImmediate(r));
      }
      return reads;
    })();
    const writer = async (letter: string) => {
      for (let i = 0; i < 5; i++) await atomicWrite(file, letters(letter, 8));
    };
    await Promise.all([writer('a'), writer('b')]);
    writing = false;
    expect(await reader).toBeGreaterThan(5);
    for (const s of seen) expect(s).toMatch(new RegExp(`^${8 * CHUNK}:(a:a|b:b):true$`));
    expect(readdirSync(dir)).toEqual(['state']);
  });

  it('exclusive: a second writer gets EEXIST and the first one’s file stays, with no temp file', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'listen-secret');
    atomicWriteSync(file, 'first\n', { exclusive: true, fsync: true });
    expect(() => atomicWriteSync(file, 'second\n', { exclusive: true })).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    await expect(atomicWrite(file, 'third\n', { exclusive: true })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(file, 'utf8')).toBe('first\n');
    expect(mode(file)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['listen-secret']);
  });
});
