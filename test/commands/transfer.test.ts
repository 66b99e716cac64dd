import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedBundle } from '../helpers/bundled';
import type { StreamResponse } from '../../src/api/client';
import { NetworkError } from '../../src/api/errors';
import { multipartBody, uploadSource } from '../../src/api/upload';
import { main } from '../../src/cli/main';
import { dispositionName, saveBody } from '../../src/output/download';
import { Progress } from '../../src/output/progress';
import { emuEnv, tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const CLEAR = '\r\u001b[2K';

class Capture extends Writable {
  chunks: Buffer[] = [];
  isTTY?: boolean;
  columns?: number;
  get text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.chunks.push(Buffer.from(chunk));
    cb();
  }
}

/** svc in-process with a stderr that may claim to be a terminal (the shared helper only fakes stdout). */
async function run(args: string[], opts: { stderrTTY?: boolean; cwd?: string }): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  stderr.isTTY = opts.stderrTTY;
  stderr.columns = 200;
  const stdin = new PassThrough();
  stdin.end();
  const env = { ...emuEnv(t.emu), SVC_CONFIG_DIR: tempConfigDir() };
  const code = await main(args, { stdin, stdout, stderr, env, cwd: opts.cwd ?? process.cwd() });
  return { code, stdout: Buffer.concat(stdout.chunks), stderr: stderr.text };
}

async function bytesOf(body: ReturnType<typeof multipartBody>): Promise<Buffer> {
  const opened = body.open();
  if (Buffer.isBuffer(opened)) return opened;
  const chunks: Buffer[] = [];
  for await (const c of opened) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('multipart upload body', () => {
  it('declares the exact Content-Length and re-sends identical bytes on every open (retries keep the Idempotency-Key valid)', async () => {
    const dir = tempConfigDir();
    const path = join(dir, 'a "quoted"\nname.bin');
    writeFileSync(path, randomBytes(70_000));
    const restarts: number[] = [];
    const body = multipartBody({ name: 'n', skip: undefined }, uploadSource(path, 70_000), 'key-1', { restart: () => restarts.push(1), bytes: () => {} });
    const first = await bytesOf(body);
    const second = await bytesOf(body);
    expect(first.length).toBe(body.length);
    expect(second.equals(first)).toBe(true);
    expect(restarts).toHaveLength(2);
    const text = first.toString('latin1');
    expect(text).toContain('filename="a %22quoted%22%0Aname.bin"');
    expect(text).not.toContain('name="skip"');
    expect(body.contentType).toMatch(/^multipart\/form-data; boundary=svc-[0-9a-f]{32}$/);
    const other = multipartBody({}, uploadSource(path, 70_000), 'key-2');
    expect(other.contentType).not.toBe(body.contentType);
  });
});

describe('progress bar', () => {
  it('draws at most ~10 times a second, with bytes, percent and rate, and clears itself', () => {
    const out = new Capture();
    let now = 0;
    const p = new Progress(out, { label: 'upload x', total: 10 * 1024 * 1024, now: () => now });
    for (let i = 0; i < 1000; i++) {
      now += 2;
      p.bytes(10 * 1024);
    }
    const frames = out.text.split(CLEAR).filter(Boolean);
    expect(frames.length).toBeGreaterThanOrEqual(19);
    expect(frames.length).toBeLessThanOrEqual(21);
    expect(frames.at(-1)).toBe('upload x  [###################-]  92%  9.3 MiB / 10.0 MiB  4.9 MiB/s');
    p.finish();
    expect(out.text.endsWith(CLEAR)).toBe(true);
  });

  it('shows a bar for an upload over 1 MiB only when stderr is a terminal', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'two.bin'), randomBytes(2 * 1024 * 1024));
    const tty = await run(['files', 'upload', 'two.bin', '-q'], { stderrTTY: true, cwd: dir });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toContain('upload two.bin');
    expect(tty.stderr).toMatch(/\d+%/);
    expect(tty.stderr.endsWith(CLEAR)).toBe(true);
    const piped = await run(['files', 'upload', 'two.bin', '-q'], { stderrTTY: false, cwd: dir });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
  });

  it('shows no bar for 1 MiB or less, even on a terminal', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'small.bin'), randomBytes(1024 * 1024));
    const r = await run(['files', 'upload', 'small.bin', '-q'], { stderrTTY: true, cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('shows a bar for a download over 1 MiB on a terminal and keeps stdout binary-exact', async () => {
    const dir = tempConfigDir();
    const content = randomBytes(3 * 1024 * 1024);
    writeFileSync(join(dir, 'three.bin'), content);
    const id = (await run(['files', 'upload', 'three.bin', '-q'], { cwd: dir })).stdout.toString().trim();
    const r = await run(['files', 'download', id, '-O', '-'], { stderrTTY: true, cwd: dir });
    expect(r.code).toBe(0);
    expect(sha(r.stdout)).toBe(sha(content));
    expect(r.stderr).toContain('download three.bin');
    expect(r.stderr.endsWith(CLEAR)).toBe(true);
  });
});

describe('download to a file', () => {
  const response = (chunks: Buffer[], fail: boolean, length?: number): StreamResponse => {
    const body = Readable.from(
      (async function* () {
        for (const c of chunks) yield c;
        if (fail) throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
      })(),
    );
    return { status: 200, headers: length === undefined ? {} : { 'content-length': String(length) }, body } as unknown as StreamResponse;
  };

  it('a body cut off mid-way leaves neither the target nor a temp file, and is a network error', async () => {
    const dir = tempConfigDir();
    const target = join(dir, 'out.bin');
    const err = await saveBody(
      response([randomBytes(1000), randomBytes(1000)], true),
      { kind: 'file', path: target, target },
      { stdout: new Capture(), fallbackName: 'x' },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe('the download was cut off: the connection was cut (the other side closed it)');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a body shorter than its Content-Length keeps the previous file untouched', async () => {
    const dir = tempConfigDir();
    const target = join(dir, 'out.bin');
    writeFileSync(target, 'previous');
    const err = await saveBody(
      response([Buffer.from('short')], false, 100),
      { kind: 'file', path: target, target },
      { stdout: new Capture(), fallbackName: 'x' },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe('the download was cut off after 5 of 100 bytes');
    expect(readFileSync(target, 'utf8')).toBe('previous');
    expect(readdirSync(dir)).toEqual(['out.bin']);
  });

  it('never lets the service choose a name outside the directory', () => {
    expect(dispositionName('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(dispositionName('attachment; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.pdf; filename="x.pdf"')).toBe('résumé.pdf');
    expect(dispositionName('attachment; filename=".."')).toBeUndefined();
    expect(dispositionName(undefined)).toBeUndefined();
  });
});

describe('memory of a 100 MiB upload (acceptance)', () => {
  const repo = new URL('../..', import.meta.url).pathname;
  const work = join(repo, 'node_modules', '.cache', `transfer-test-${process.pid}`);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('svc files upload of a 100 MiB file keeps the CLI under 100 MiB of RSS, and the server holds every byte', async () => {
    mkdirSync(work, { recursive: true });
    const bin = await sharedBundle();
    const big = join(work, 'big.bin');
    writeFileSync(big, '');
    truncateSync(big, 100 * 1024 * 1024);

    // Asynchronous spawn: the emulator answers from this same process.
    const child = spawn(process.execPath, [bin, 'files', 'upload', big, '-q'], {
      env: { PATH: process.env.PATH, SVC_CONFIG_DIR: tempConfigDir(), ...(emuEnv(t.emu) as Record<string, string>) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    // VmHWM is the peak resident set so far: the last sample before exit is the peak of the run.
    let peakKiB = 0;
    const sample = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKiB = Math.max(peakKiB, Number(m[1]));
      } catch {
        // the process has exited
      }
    }, 10);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearInterval(sample);
    rmSync(big, { force: true });

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(peakKiB).toBeGreaterThan(0);
    expect(peakKiB / 1024).toBeLessThan(100);
    const id = stdout.trim();
    const record = await call(t.emu, 'GET', `/v1/files/${id}`);
    expect(record.body.size_bytes).toBe(100 * 1024 * 1024);
    const res = await fetch(`${t.emu.url}/v1/files/${id}/content`, { headers: { authorization: `Bearer ${t.emu.apiKey}` } });
    const hash = createHash('sha256');
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
    const zeros = createHash('sha256');
    for (let i = 0; i < 100; i++) zeros.update(Buffer.alloc(1024 * 1024));
    expect(hash.digest('hex')).toBe(zeros.digest('hex'));
    expect(existsSync(big)).toBe(false);
  }, 120_000);
});
