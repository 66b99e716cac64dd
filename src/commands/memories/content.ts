import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { readInputFile, readStream } from '../../input/read';
import type { MemoryWrite } from '../../api/memory';
import { UsageError } from '../../runtime/errors';
import type { Io } from '../../runtime/io';
import type { Flags } from '../../cli/flags';
import { LIMITS, MiB } from '../../wire/limits';

/** Where the content of a write comes from: exactly one of --text, --file F and `-` (standard input). */
export type ContentSource = { kind: 'text'; text: string } | { kind: 'file'; file: string } | { kind: 'stdin' };

export function contentSource(opts: Flags, positional: string | undefined): ContentSource {
  if (positional !== undefined && positional !== '-') throw new UsageError(`unexpected argument "${positional}": only - (standard input) may follow PATH`);
  const given = [opts.text !== undefined, opts.file !== undefined, positional === '-'].filter(Boolean).length;
  if (given === 0) throw new UsageError('give the content: --file FILE, --text TEXT, or - for standard input');
  if (given > 1) throw new UsageError('give only one of --file, --text and - (standard input)');
  if (opts.text !== undefined) return { kind: 'text', text: String(opts.text) };
  if (opts.file === '-' || positional === '-') return { kind: 'stdin' };
  return { kind: 'file', file: String(opts.file) };
}

const tooLarge = (what: string, bytes: number): UsageError =>
  new UsageError(
    `${what} is ${(bytes / MiB).toFixed(1)} MiB; a memory write request may be at most ${LIMITS.memoryWriteBody / MiB} MiB (binary content is sent base64-encoded)`,
  );

/** Reads the content, refusing anything over the request limit before it is all in memory. */
export async function readContent(src: ContentSource, io: Io, limit = LIMITS.memoryWriteBody): Promise<Buffer> {
  if (src.kind === 'text') return Buffer.from(src.text, 'utf8');
  if (src.kind === 'stdin') return readStream(io.stdin, { what: 'standard input', limit, signal: io.signal });
  const size = fileSize(resolve(io.cwd, src.file));
  if (size > limit) throw tooLarge(src.file, size);
  return readInputFile(src.file, io.cwd, { what: src.file, limit, signal: io.signal });
}

const fileSize = (file: string): number => {
  try {
    return statSync(file).size;
  } catch {
    return 0; // readInputFile names the reason
  }
};

/** Text goes as `content` (smaller and readable); bytes that are not UTF-8 go as `content_base64`. */
export function contentBody(bytes: Buffer): Pick<MemoryWrite, 'content' | 'content_base64'> {
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? { content: text } : { content_base64: bytes.toString('base64') };
}

/** The 28 MiB limit is on the request body as sent (spec "Limits"), so it is measured on the JSON itself. */
export function checkRequestSize(body: MemoryWrite): void {
  const bytes = Buffer.byteLength(JSON.stringify(body));
  if (bytes > LIMITS.memoryWriteBody) throw tooLarge('the request body', bytes);
}
