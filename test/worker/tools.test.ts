// Rules proved here: R-WORK-11 (redaction of log lines)
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
  existsSync,
  ftruncateSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { toolEnv } from '../../src/worker/index';
import { WorkerLog } from '../../src/worker/log';
import { runTool, type ToolContext } from '../../src/worker/tools/index';
import { addSecret } from '../../src/text/redact';

let root: string;
let workdir: string;
let outside: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'svc-worker-tools-')));
  workdir = join(root, 'work');
  outside = join(root, 'outside');
  mkdirSync(workdir);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'top secret\n');
});

const ctx = (over: Partial<ToolContext> = {}): ToolContext => ({
  workdir,
  signal: new AbortController().signal,
  env: { PATH: process.env.PATH },
  bashTimeoutMs: 10_000,
  toolTimeoutMs: 10_000,
  maxOutputChars: 30_000,
  ...over,
});
const text = (r: { content: Array<{ text: string }> }) => r.content.map((c) => c.text).join('');

/** Counts the bytes read through every fs/promises file handle until `restore`. */
async function countBytesRead() {
  const sample = await open(join(root, 'sample'), 'w');
  await sample.close();
  const proto = Object.getPrototypeOf(sample) as { read: (...a: unknown[]) => Promise<{ bytesRead: number }> };
  const original = proto.read;
  let bytes = 0;
  proto.read = async function (this: unknown, ...a: unknown[]) {
    const r = await original.apply(this, a);
    bytes += r.bytesRead;
    return r;
  };
  return { bytes: () => bytes, restore: () => (proto.read = original) };
}

describe('worker tools: confinement', () => {
  it('--unrestricted-paths lets the file tools read and write outside the workdir', async () => {
    const open = ctx({ unrestrictedPaths: true });
    expect(text(await runTool('read', { path: '../outside/secret.txt' }, open))).toContain('top secret');
    await runTool('write', { path: join(outside, 'new.txt'), content: 'written' }, open);
    expect(readFileSync(join(outside, 'new.txt'), 'utf8')).toBe('written');
  });

  it('refuses a read that climbs out with ..', async () => {
    const r = await runTool('read', { path: '../outside/secret.txt' }, ctx());
    expect(r.is_error).toBe(true);
    expect(text(r)).toContain('outside the workdir');
    expect(text(r)).not.toContain('top secret');
  });

  it('refuses an absolute path outside the workdir', async () => {
    const r = await runTool('read', { path: join(outside, 'secret.txt') }, ctx());
    expect(r).toMatchObject({ is_error: true });
  });

  it('refuses a symlink that points out of the workdir, for reading and for writing through it', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(workdir, 'link.txt'));
    symlinkSync(outside, join(workdir, 'linkdir'));
    const read = await runTool('read', { path: 'link.txt' }, ctx());
    expect(read.is_error).toBe(true);
    expect(text(read)).not.toContain('top secret');
    const write = await runTool('write', { path: 'linkdir/new.txt', content: 'x' }, ctx());
    expect(write.is_error).toBe(true);
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
  });

  it('refuses a write through a dangling symlink whose target is outside', async () => {
    symlinkSync(join(outside, 'created-by-escape.txt'), join(workdir, 'dangling'));
    const r = await runTool('write', { path: 'dangling', content: 'x' }, ctx());
    expect(r.is_error).toBe(true);
    expect(existsSync(join(outside, 'created-by-escape.txt'))).toBe(false);
  });

  it('grep and glob never list files behind a link that leaves the workdir', async () => {
    symlinkSync(outside, join(workdir, 'linkdir'));
    symlinkSync(join(outside, 'secret.txt'), join(workdir, 'link.txt'));
    writeFileSync(join(workdir, 'mine.txt'), 'not secret\n');
    expect(text(await runTool('grep', { pattern: 'secret' }, ctx()))).toBe('mine.txt:1:not secret');
    expect(text(await runTool('glob', { pattern: '**/*.txt' }, ctx()))).toBe('mine.txt');
  });

  it('allows paths inside the workdir, including a link that stays inside', async () => {
    mkdirSync(join(workdir, 'sub'));
    writeFileSync(join(workdir, 'sub', 'a.txt'), 'one\ntwo\nthree\n');
    symlinkSync(join(workdir, 'sub', 'a.txt'), join(workdir, 'inner-link'));
    expect(text(await runTool('read', { path: 'inner-link', offset: 2, limit: 1 }, ctx()))).toBe('     2\ttwo\n[more lines follow; read on with offset 3]');
  });
});

describe('worker tools: bash', () => {
  it('runs in the workdir and returns stdout and stderr', async () => {
    const r = await runTool('bash', { command: 'pwd; echo oops >&2' }, ctx());
    expect(r.is_error).toBeUndefined();
    expect(text(r)).toBe(`${workdir}\noops\n`);
  });

  // Issue 45 item 26's sibling: the agent writes files into the workdir, where bash starts.
  it('a bash the agent planted in the workdir is never run through a relative PATH entry (bin, .)', async () => {
    mkdirSync(join(workdir, 'bin'));
    for (const at of [join(workdir, 'bin', 'bash'), join(workdir, 'bash')]) writeFileSync(at, '#!/bin/sh\necho planted\n', { mode: 0o755 });
    for (const PATH of [`bin:${process.env.PATH}`, `.:${process.env.PATH}`]) {
      const r = await runTool('bash', { command: 'echo real' }, ctx({ env: { PATH } }));
      expect(text(r), PATH).toBe('real\n');
    }
  });

  it('kills a command past its timeout and says so', async () => {
    // Unkilled, the command would outlast the test's own timeout (60 s sleep) and then print "survived".
    const r = await runTool('bash', { command: 'echo begun; sleep 60; echo survived', timeout: 300 }, ctx());
    expect(r.is_error).toBe(true);
    expect(text(r)).toBe('begun\n\n[timed out after 300 ms; the command was killed]');
  });

  it('caps long output and marks it as truncated', async () => {
    const r = await runTool('bash', { command: 'head -c 5000 /dev/zero | tr "\\0" a' }, ctx({ maxOutputChars: 1000 }));
    expect(text(r)).toBe(`${'a'.repeat(1000)}\n[output truncated: 4000 more characters]`);
  });

  it('reports a non-zero exit as an error result with the code', async () => {
    const r = await runTool('bash', { command: 'exit 3' }, ctx());
    expect(r).toMatchObject({ is_error: true });
    expect(text(r)).toContain('[exit 3]');
  });

  it('stops the command at once when cancelled', async () => {
    const ac = new AbortController();
    // Unkilled, the sleep would outlast the test's own timeout.
    const p = runTool('bash', { command: 'sleep 60' }, ctx({ signal: ac.signal }));
    setImmediate(() => ac.abort());
    const r = await p;
    expect(r.is_error).toBe(true);
    // bash's own answer once the command is dead, not runTool's fallback for a tool that did not stop ("…this call").
    expect(text(r)).toBe('\n[cancelled: the worker stopped this command]');
  });

  it('does not pass the worker credentials to commands', async () => {
    // The worker's own environment, credentials included, filtered the way runWorker filters it.
    const env = toolEnv({ PATH: process.env.PATH, SVC_ENVIRONMENT_KEY: 'ek_leak', SVC_API_KEY: 'sk_leak', KEEP_ME: 'kept' });
    const r = await runTool('bash', { command: 'echo "[${SVC_ENVIRONMENT_KEY:-none}] [${SVC_API_KEY:-none}] [$KEEP_ME]"' }, ctx({ env }));
    expect(text(r)).toBe('[none] [none] [kept]\n');
  });
});

describe('worker tools: files', () => {
  it('writes, edits and reads a file, creating folders', async () => {
    expect((await runTool('write', { path: 'd/e/f.txt', content: 'alpha beta alpha\n' }, ctx())).is_error).toBeUndefined();
    const dup = await runTool('edit', { path: 'd/e/f.txt', old_string: 'alpha', new_string: 'A' }, ctx());
    expect(dup.is_error).toBe(true);
    expect(text(dup)).toContain('occurs 2 times');
    expect(text(await runTool('edit', { path: 'd/e/f.txt', old_string: 'alpha', new_string: 'A', replace_all: true }, ctx()))).toContain('2 replacements');
    expect(readFileSync(join(workdir, 'd/e/f.txt'), 'utf8')).toBe('A beta A\n');
    expect(text(await runTool('read', { path: 'd/e/f.txt' }, ctx()))).toBe('     1\tA beta A');
  });

  it('globs with ** and braces, and greps with a file-name filter', async () => {
    mkdirSync(join(workdir, 'src/deep'), { recursive: true });
    writeFileSync(join(workdir, 'src/a.ts'), 'const x = 1;\n');
    writeFileSync(join(workdir, 'src/deep/b.ts'), 'let y = 2;\nconst z = 3;\n');
    writeFileSync(join(workdir, 'src/c.md'), 'const in prose\n');
    expect(text(await runTool('glob', { pattern: 'src/**/*.{ts,md}' }, ctx())).split('\n')).toEqual(['src/a.ts', 'src/c.md', 'src/deep/b.ts']);
    expect(text(await runTool('grep', { pattern: '^const', glob: '*.ts' }, ctx())).split('\n')).toEqual([
      'src/a.ts:1:const x = 1;',
      'src/deep/b.ts:2:const z = 3;',
    ]);
    expect(text(await runTool('grep', { pattern: 'y =', path: 'src/deep/b.ts' }, ctx()))).toBe('src/deep/b.ts:1:let y = 2;');
  });

  it('answers bad input with an error result', async () => {
    expect(await runTool('read', {}, ctx())).toMatchObject({ is_error: true });
    expect(await runTool('grep', { pattern: '(' }, ctx())).toMatchObject({ is_error: true });
    expect(await runTool('read', { path: 'missing.txt' }, ctx())).toMatchObject({ is_error: true });
    expect(await runTool('bash', 'not an object', ctx())).toMatchObject({ is_error: true });
  });

  it('answers an unknown tool with an error result, not a crash', async () => {
    const r = await runTool('frobnicate', { x: 1 }, ctx());
    expect(r.is_error).toBe(true);
    expect(text(r)).toContain('unknown tool "frobnicate"');
    expect(await runTool('constructor', {}, ctx())).toMatchObject({ is_error: true });
  });
});

describe('worker tools: files that are not regular, big files, stuck tools', () => {
  const fifo = (name: string) => {
    const path = join(workdir, name);
    execFileSync('mkfifo', [path]);
    return path;
  };

  it('read, write, edit and grep refuse a FIFO at once with a tool error (nothing opens it for a blocking read or write)', async () => {
    // A blocking open of a FIFO nobody writes never returns: such a tool would hang past the test's timeout.
    fifo('pipe');
    for (const [tool, input] of [
      ['read', { path: 'pipe' }],
      ['write', { path: 'pipe', content: 'x' }],
      ['edit', { path: 'pipe', old_string: 'a', new_string: 'b' }],
      ['grep', { pattern: 'a', path: 'pipe' }],
    ] as const) {
      const r = await runTool(tool, input, ctx());
      expect(r.is_error, tool).toBe(true);
      expect(text(r), tool).toContain('pipe is not a regular file');
    }
  });

  it('glob matches dot files like any other, character classes and their negation', async () => {
    mkdirSync(join(workdir, 'cfg'), { recursive: true });
    for (const f of ['cfg/.env', 'cfg/a1.yaml', 'cfg/b2.yaml']) writeFileSync(join(workdir, f), 'x');
    expect(text(await runTool('glob', { pattern: 'cfg/*' }, ctx())).split('\n')).toEqual(['cfg/.env', 'cfg/a1.yaml', 'cfg/b2.yaml']);
    expect(text(await runTool('glob', { pattern: 'cfg/[!a]*.yaml' }, ctx()))).toBe('cfg/b2.yaml');
    expect(text(await runTool('glob', { pattern: 'cfg/?1.yaml' }, ctx()))).toBe('cfg/a1.yaml');
  });

  it('grep and glob over a folder skip a FIFO in it', async () => {
    fifo('pipe.txt');
    writeFileSync(join(workdir, 'real.txt'), 'needle\n');
    expect(text(await runTool('grep', { pattern: 'needle' }, ctx()))).toBe('real.txt:1:needle');
    expect(text(await runTool('glob', { pattern: '*.txt' }, ctx()))).toBe('real.txt');
  });

  it('read refuses a device such as /dev/zero (with --unrestricted-paths) instead of reading without end', async () => {
    const r = await runTool('read', { path: '/dev/zero' }, ctx({ unrestrictedPaths: true }));
    expect(r.is_error).toBe(true);
    expect(text(r)).toContain('/dev/zero is not a regular file');
  });

  it('read reads only the window offset/limit ask for: two lines at the head of an 8 GiB file come back at once', async () => {
    // Sparse: two short lines, then 8 GiB of zero bytes that a whole-file read could not even hold in a string.
    const fd = openSync(join(workdir, 'huge.log'), 'w');
    writeSync(fd, 'one\ntwo\nthree\n');
    ftruncateSync(fd, 8 * 1024 ** 3);
    closeSync(fd);
    // Every byte the tool reads, counted on the file handles it opens.
    const read = await countBytesRead();
    try {
      expect(text(await runTool('read', { path: 'huge.log', offset: 2, limit: 1 }, ctx()))).toBe('     2\ttwo\n[more lines follow; read on with offset 3]');
      // One 64 KiB chunk holds the window: the other 8 GiB are never read.
      expect(read.bytes()).toBeLessThanOrEqual(64 * 1024);
      // A window over the endless last line stops at the output cap.
      const tail = await runTool('read', { path: 'huge.log', offset: 4, limit: 1 }, ctx({ maxOutputChars: 100 }));
      expect(text(tail)).toMatch(/^ {5}4\t\0+\n\[output truncated at 100 characters; read on with a smaller limit or a later offset\]$/);
      expect(read.bytes()).toBeLessThanOrEqual(2 * 64 * 1024);
    } finally {
      read.restore();
    }
  });

  it('read numbers the lines of its window and reads a last line without a newline', async () => {
    writeFileSync(join(workdir, 'f.txt'), 'a\nb\nc');
    expect(text(await runTool('read', { path: 'f.txt' }, ctx()))).toBe('     1\ta\n     2\tb\n     3\tc');
    expect(text(await runTool('read', { path: 'f.txt', offset: 3 }, ctx()))).toBe('     3\tc');
    expect(text(await runTool('read', { path: 'f.txt', limit: 2 }, ctx()))).toBe('     1\ta\n     2\tb\n[more lines follow; read on with offset 3]');
  });

  it('a catastrophic grep pattern ((a+)+$ on 40 a and a !) ends in a tool error at its deadline while the event loop runs on', async () => {
    writeFileSync(join(workdir, 'poison.txt'), 'a'.repeat(40) + '!\n');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    try {
      const r = await runTool('grep', { pattern: '^(a+)+$' }, ctx({ toolTimeoutMs: 1000 }));
      expect(r.is_error).toBe(true);
      expect(text(r)).toContain('grep: did not finish within its deadline of 1000 ms');
    } finally {
      clearInterval(ticker);
    }
    // The result names the deadline, so the deadline ended it; a grep that never ended would hang past the test's timeout.
    // Blocked, the loop would not have ticked at all before the deadline.
    expect(ticks).toBeGreaterThanOrEqual(10);
  });

  it('a cancel stops a grep stuck in a catastrophic pattern at once', async () => {
    writeFileSync(join(workdir, 'poison.txt'), 'a'.repeat(40) + '!\n');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    // A deadline past the test's own timeout: only the cancel can end this call in time.
    const r = await runTool('grep', { pattern: '^(a+)+$' }, ctx({ signal: ac.signal, toolTimeoutMs: 60_000 }));
    expect(r.is_error).toBe(true);
    // The search itself answered the cancel (runTool's fallback would say "cancelled: the worker stopped this call").
    expect(text(r)).toContain('grep: the search was stopped');
  });

  it('edit refuses a file over its size limit instead of reading it whole', async () => {
    const fd = openSync(join(workdir, 'big.txt'), 'w');
    ftruncateSync(fd, 64 * 1024 * 1024);
    closeSync(fd);
    const r = await runTool('edit', { path: 'big.txt', old_string: 'a', new_string: 'b' }, ctx());
    expect(r.is_error).toBe(true);
    expect(text(r)).toContain('over the 10485760-byte limit');
  });
});

describe('worker log', () => {
  it("R-WORK-11 masks every registered secret in text and JSON lines, through the run's one redaction", () => {
    let out = '';
    const sink = new Writable({ write: (c, _e, cb) => ((out += c.toString()), cb()) });
    addSecret('st_secret_token');
    const log = new WorkerLog(sink, 'json', () => 0);
    log.info('tool finished', { output: 'leak st_secret_token here' });
    const text = new WorkerLog(sink, 'text', () => 0);
    text.warn('failed', { error: 'Bearer st_secret_token' });
    expect(out).not.toContain('st_secret_token');
    expect(JSON.parse(out.split('\n')[0])).toEqual({ time: '1970-01-01T00:00:00.000Z', level: 'info', msg: 'tool finished', output: 'leak *** here' });
    expect(out.split('\n')[1]).toBe('1970-01-01T00:00:00.000Z warn failed error="Bearer ***"');
  });
});

describe('worker tools: cancelled searches', () => {
  it('a grep or glob cancelled during its walk says it was stopped, never "no matches" or a partial list', async () => {
    for (let i = 0; i < 50; i++) writeFileSync(join(workdir, `f${i}.txt`), 'needle\n');
    const ac = new AbortController();
    ac.abort();
    const g = await runTool('grep', { pattern: 'needle' }, ctx({ signal: ac.signal }));
    expect(g.is_error).toBe(true);
    expect(text(g)).toMatch(/^grep: the search was stopped/);
    const l = await runTool('glob', { pattern: '*.txt' }, ctx({ signal: ac.signal }));
    expect(l.is_error).toBe(true);
    expect(text(l)).toMatch(/^glob: the listing was stopped/);
  });
});
