import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import type { Io } from '../../src/runtime/io';
import { lines, type Line } from '../../src/worker/lines';
import { Capture, tempConfigDir } from '../helpers/cli';
import { workdir } from './helpers';

async function all(stream: AsyncIterable<Buffer | string> | string[], maxBytes: number): Promise<Line[]> {
  const out: Line[] = [];
  for await (const l of lines(Array.isArray(stream) ? Readable.from(stream) : stream, maxBytes)) out.push(l);
  return out;
}

/** `count` chunks of `size` bytes of `a`, then `tail`, made as they are read. */
function* repeated(count: number, size: number, tail = ''): Generator<Buffer> {
  const chunk = Buffer.alloc(size, 'a');
  for (let i = 0; i < count; i++) yield chunk;
  if (tail) yield Buffer.from(tail);
}

describe('worker input lines', () => {
  it('splits lines across chunk boundaries, keeps empty lines and a last line without a newline', async () => {
    expect(await all(['ab', 'c\n\nd', 'e\nf'], 100)).toEqual([
      { text: 'abc', cut: false },
      { text: '', cut: false },
      { text: 'de', cut: false },
      { text: 'f', cut: false },
    ]);
  });

  it('cuts a line past its bound at a whole character, skips its rest and goes on with the next line', async () => {
    // é is two bytes: a bound of two falls inside it.
    expect(await all(['aé', 'bc\nnext\n'], 2)).toEqual([
      { text: 'a', cut: true },
      { text: 'ne', cut: true },
    ]);
    expect(await all(['abc\n', 'abcd\nok'], 3)).toEqual([
      { text: 'abc', cut: false },
      { text: 'abc', cut: true },
      { text: 'ok', cut: false },
    ]);
  });

  it('reads one 200 MB line in linear time and bounded memory', async () => {
    // Chunks pulled from the source so far, and how many had been pulled when each line came out.
    let pulled = 0;
    const source = (async function* () {
      for (const chunk of repeated(3200, 64 * 1024, '\nafter\n')) {
        pulled++;
        yield chunk;
      }
    })();
    const got: Array<[number, boolean, number]> = [];
    for await (const l of lines(source, 64 * 1024)) got.push([l.text.length, l.cut, pulled]);
    // The cut head comes out with the chunk after the bound, not at the line's end: the 200 MB rest is never held.
    // (A search that went back over the line, instead of linear, would not end within the test's timeout.)
    expect(got).toEqual([
      [64 * 1024, true, 2],
      [5, false, 3201],
    ]);
  });
});

describe('svc worker serve: its input', () => {
  async function serve(stdin: AsyncIterable<Buffer | string>, env: Record<string, string> = {}) {
    const stdout = new Capture();
    const stderr = new Capture();
    const io: Io = { stdin, stdout, stderr, env: { SVC_CONFIG_DIR: tempConfigDir(), ...env }, cwd: process.cwd() };
    const code = await main(['worker', 'serve', '--workdir', workdir()], io);
    return { code, stdout: stdout.text, stderr: stderr.text };
  }

  it('exits 2 on a first line over the hand-off bound as soon as the bound is passed (an endless line never ends otherwise)', async () => {
    function* endless(): Generator<Buffer> {
      const chunk = Buffer.alloc(64 * 1024, 'a');
      for (;;) yield chunk;
    }
    let pulled = 0;
    async function* counted(): AsyncGenerator<Buffer> {
      for (const chunk of endless()) {
        pulled++;
        // A turn of the event loop each chunk, so a reader that never stops meets the test's timeout instead of spinning.
        await new Promise((r) => setImmediate(r));
        yield chunk;
      }
    }
    const r = await serve(counted());
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: the hand-off on standard input is longer than 4194304 bytes: it is not one from `svc worker run --on-work`\n');
    // Read up to the bound (64 chunks of 64 KiB) and the one chunk that passes it, no further.
    expect(pulled).toBe(4194304 / (64 * 1024) + 1);
  });

  it('exits 2 on a hand-off whose base_url is not a URL, before any request, instead of retrying it', async () => {
    const handoff = {
      type: 'svc.work_handoff',
      row: { id: 'work_1', generation: 1, status: 'active', session_id: 'sesn_1', environment_id: 'env_1' },
      sessions_token: 'st_never_shown',
      base_url: 'not a url',
      api_version: '2026-09-01-beta',
      max_idle_ms: 0,
    };
    const r = await serve(Readable.from([JSON.stringify(handoff) + '\n']));
    expect(r.code).toBe(2);
    // The hand-off's own check, word for word: a request tried and retried would end (if ever) in another error.
    expect(r.stderr).toBe('error: the hand-off base_url "not a url" has no scheme: use an http(s) URL such as http://not a url\n');
    expect(r.stderr).not.toContain('st_never_shown');
  });
});
