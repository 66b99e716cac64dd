import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { readLines } from '../../src/input/read';
import { MAX_STDIN_IDS, readIds } from '../../src/selection/selectors';
import { MiB } from '../../src/wire/limits';
import { Capture, emuEnv, tempConfigDir } from '../helpers/cli';
import { requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();

/** svc with `chunks` as its piped standard input, made lazily; `pulled()` counts the chunks svc asked for. */
async function svcPiped(args: string[], chunks: () => Generator<Buffer>) {
  let pulled = 0;
  const source = chunks();
  const stdin = Readable.from(
    (function* () {
      for (const c of source) {
        pulled++;
        yield c;
      }
    })(),
    { objectMode: false },
  );
  const stdout = new Capture();
  const stderr = new Capture();
  const env = { ...emuEnv(t.emu), SVC_CONFIG_DIR: tempConfigDir() };
  const code = await main(args, { stdin, stdout, stderr, env, cwd: process.cwd() });
  return { code, stdout: stdout.text, stderr: stderr.text, pulled: () => pulled };
}

describe('IDs on standard input are read as bounded lines', () => {
  it('700 MiB on one line piped to sessions archive - is exit 2 stating the per-line bound, read no further, nothing sent', async () => {
    const before = await requestCount(t.emu);
    const mib = Buffer.alloc(MiB, 'a');
    const r = await svcPiped(['sessions', 'archive', '-', '--yes'], function* () {
      for (let i = 0; i < 700; i++) yield mib;
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: standard input line 1 is longer than 4 MiB: svc reads at most 4 MiB per line\n');
    expect(r.pulled()).toBeLessThanOrEqual(8);
    expect(await requestCount(t.emu)).toBe(before);
  });

  it(`more than ${MAX_STDIN_IDS} IDs is exit 2 stating the bound (read no further), before anything is sent`, async () => {
    let pulled = 0;
    const block = Buffer.from('sesn_x\n'.repeat(10));
    const endless = Readable.from(
      (function* () {
        for (;;) {
          pulled++;
          yield block;
        }
      })(),
      { objectMode: false },
    );
    await expect(readIds(endless, undefined, 25)).rejects.toThrow('standard input holds more than 25 IDs: svc reads at most 25 at once; nothing was sent');
    expect(pulled).toBeLessThan(10);
    expect(await readIds(Readable.from([Buffer.from('a\n\n{"id":"b"}\nc')]), undefined, 3)).toEqual(['a', 'b', 'c']);
  });

  it('lines split across chunks, CRLF endings and a last line without a break are read whole, numbered as an editor counts', async () => {
    const lines = [];
    for await (const batch of readLines(Readable.from([Buffer.from('ab'), Buffer.from('c\r\nd'), Buffer.from('e\n\nf')]), { what: 'x', maxLine: 8 }))
      lines.push(...batch);
    expect(lines).toEqual([
      { n: 1, text: 'abc' },
      { n: 2, text: 'de' },
      { n: 3, text: '' },
      { n: 4, text: 'f' },
    ]);
  });

  it('a line of exactly the bound is read; one byte more is refused naming its line', async () => {
    const read = async (text: string) => {
      const out = [];
      for await (const batch of readLines(Readable.from([Buffer.from(text)]), { what: 'F', maxLine: 4 })) out.push(...batch.map((l) => l.text));
      return out;
    };
    expect(await read('abcd\nef')).toEqual(['abcd', 'ef']);
    await expect(read('abcd\nabcde\n')).rejects.toThrow('F line 2 is longer than 4 bytes: svc reads at most 4 bytes per line');
  });
});
