import { accessSync, constants, createWriteStream, existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { StreamResponse } from '../api/client';
import { NetworkError, networkReason } from '../api/errors';
import { UsageError } from '../runtime/errors';
import { atomicWrite } from '../fs/atomic-write';
import { write, type OutStream } from '../runtime/io';
import { outPath, writeFailure, type OutPath } from './out-path';

/**
 * Where downloaded bytes go: stdout, a named file (`path` as given, `target` where the bytes land once symlinks are
 * followed), a device or FIFO written straight into, or a directory under the service's file name.
 */
export type DownloadTarget =
  { kind: 'stdout' } | { kind: 'file'; path: string; target: string } | { kind: 'special'; path: string } | { kind: 'dir'; dir: string };

/**
 * Decides the target before any request, so a bad path is exit 2 with nothing sent:
 * `-O -` is stdout; `-O DIR` (an existing directory, or a path ending in `/`) keeps the service's
 * file name; `-O FILE` is that file, replaced atomically (through a symlink, its target); a device or
 * FIFO is written into. Without `-O`: stdout when it is piped, else the current directory under the
 * service's file name (binary is never written to a terminal).
 */
export function downloadTarget(out: string | undefined, cwd: string, stdout: { isTTY?: boolean }): DownloadTarget {
  if (out === '-') return { kind: 'stdout' };
  if (out === undefined) return stdout.isTTY ? { kind: 'dir', dir: writableDir(cwd, cwd) } : { kind: 'stdout' };
  const path = resolve(cwd, out);
  const o: OutPath = /[/\\]$/.test(out) ? { kind: 'dir', path } : outPath(path);
  if (o.kind === 'dir') return { kind: 'dir', dir: writableDir(o.path, out) };
  if (o.kind === 'special') {
    writable(o.path, out);
    return { kind: 'special', path };
  }
  writableDir(dirname(o.target), dirname(o.target === path ? out : o.target));
  return { kind: 'file', path, target: o.target };
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function writableDir(path: string, shown: string): string {
  if (!isDir(path)) throw new UsageError(`cannot write into ${shown}: no such directory`);
  writable(path, shown, 'into ');
  return path;
}

function writable(path: string, shown: string, into = ''): void {
  try {
    accessSync(path, constants.W_OK);
  } catch {
    throw new UsageError(`cannot write ${into}${shown}: permission denied`);
  }
}

/** The file name a response suggests (RFC 6266 `filename*` first), reduced to a safe base name. */
export function dispositionName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*utf-8''([^;]+)/i.exec(header)?.[1];
  let name: string | undefined;
  if (star) {
    try {
      name = decodeURIComponent(star.trim());
    } catch {
      name = undefined;
    }
  }
  name ??= /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)?.[1]?.replace(/\\(.)/g, '$1') ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
  return name === undefined ? undefined : safeName(name);
}

/** A name the service chose must never leave the directory: base name only, no control characters. */
export function safeName(name: string): string | undefined {
  const base = basename(name.replace(/\\/g, '/'))
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return base === '' || base === '.' || base === '..' ? undefined : base;
}

/** Told of every chunk (progress bar, memory relief) and of the end. */
export interface TransferMeter {
  bytes(n: number): void;
  finish(): void;
}

export interface SaveOptions {
  stdout: OutStream;
  /** The name used under a directory target when the response suggests none. */
  fallbackName: string;
  meter?: TransferMeter;
}

export interface Saved {
  /** The file written; undefined for stdout. */
  path?: string;
  bytes: number;
}

/** Writes a response body to its target: stdout with backpressure, or a temp file renamed into place at the end. */
export async function saveBody(res: StreamResponse, target: DownloadTarget, opts: SaveOptions): Promise<Saved> {
  const expected = res.headers['content-length'] === undefined ? undefined : Number(res.headers['content-length']);
  let sourceError: unknown;
  res.body.once('error', (e) => (sourceError = e));
  const failure = (e: unknown, path?: string): Error => {
    if (sourceError !== undefined || !(e as NodeJS.ErrnoException).syscall) {
      const cause = sourceError ?? e;
      if (cause instanceof UsageError || cause instanceof NetworkError) return cause;
      const err = cause as { code?: string; message?: string };
      return new NetworkError(`the download was cut off: ${networkReason(cause) ?? err.code ?? err.message ?? 'connection lost'}`, cause);
    }
    return new UsageError(writeFailure(path ?? 'the download', e));
  };
  let bytes = 0;
  /** The body's chunks, counted and metered; a body shorter than its Content-Length ends in an error. */
  async function* chunks(): AsyncGenerator<Buffer> {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      opts.meter?.bytes(chunk.length);
      yield chunk;
    }
    if (expected !== undefined && bytes !== expected) throw new NetworkError(`the download was cut off after ${bytes} of ${expected} bytes`);
  }

  if (target.kind === 'stdout') {
    try {
      for await (const chunk of chunks()) await write(opts.stdout, chunk);
    } catch (e) {
      throw failure(e);
    } finally {
      opts.meter?.finish();
    }
    return { bytes };
  }

  if (target.kind === 'special') {
    // A device or FIFO takes the bytes as they come: there is nothing to rename over.
    try {
      await pipeline(chunks(), createWriteStream(target.path, { flags: 'w' }));
    } catch (e) {
      throw failure(e, target.path);
    } finally {
      opts.meter?.finish();
    }
    return { path: target.path, bytes };
  }

  let path: string;
  let dest: string;
  if (target.kind === 'file') ({ path, target: dest } = target);
  else {
    path = dest = join(target.dir, dispositionName(res.headers['content-disposition']) ?? opts.fallbackName);
    if (existsSync(path)) {
      res.body.destroy();
      throw new UsageError(`not overwriting ${path}: pass -O ${path} to replace it`);
    }
  }
  // Written whole (atomic-write.ts): the target is never a partial file, and a cut-off body leaves none (a symlink stays).
  try {
    await atomicWrite(dest, chunks(), { mode: 0o666 });
  } catch (e) {
    throw failure(e, path);
  } finally {
    opts.meter?.finish();
  }
  return { path, bytes };
}
