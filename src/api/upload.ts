import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import type { RawBody } from './client';

/** A file on disk to send as the `file` part; `size` is what its stat said before the request. */
export interface UploadSource {
  path: string;
  filename: string;
  size: number;
  contentType: string;
}

/** Hooks of one upload: `restart` when an attempt (re)opens the body, `bytes` as file bytes go out. */
export interface UploadObserver {
  restart(): void;
  bytes(n: number): void;
}

const TYPES: Record<string, string> = {
  zip: 'application/zip',
  json: 'application/json',
  jsonl: 'application/jsonl',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** The part's Content-Type, from the extension; anything else is opaque bytes. */
export function contentTypeOf(path: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (ext && TYPES[ext]) || 'application/octet-stream';
}

export function uploadSource(path: string, size: number): UploadSource {
  return { path, filename: basename(path), size, contentType: contentTypeOf(path) };
}

/** Quotes a multipart parameter as browsers do: `"` and line breaks percent-encoded. */
const quoted = (s: string): string => `"${s.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;

/**
 * A `multipart/form-data` body: the text fields, then the file streamed from disk (never read whole).
 * The boundary derives from the Idempotency-Key, so every attempt, and a rerun with the same
 * `--idempotency-key`, sends identical bytes and replays instead of conflicting.
 */
export function multipartBody(fields: Record<string, string | undefined>, file: UploadSource, idempotencyKey: string, observer?: UploadObserver): RawBody {
  const boundary = `svc-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32)}`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    head += `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=${quoted(file.filename)}\r\nContent-Type: ${file.contentType}\r\n\r\n`;
  const pre = Buffer.from(head, 'utf8');
  const post = Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1');
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: pre.length + file.size + post.length,
    open: () => {
      observer?.restart();
      return Readable.from(parts(pre, file, post, observer), { objectMode: false });
    },
  };
}

async function* parts(pre: Buffer, file: UploadSource, post: Buffer, observer?: UploadObserver): AsyncGenerator<Buffer> {
  yield pre;
  let sent = 0;
  for await (const chunk of createReadStream(file.path)) {
    sent += (chunk as Buffer).length;
    // The Content-Length is already on the wire: a file that grew would corrupt the request.
    if (sent > file.size) throw new Error(`${file.path} changed while it was being uploaded`);
    observer?.bytes((chunk as Buffer).length);
    yield chunk as Buffer;
  }
  if (sent !== file.size) throw new Error(`${file.path} changed while it was being uploaded`);
  yield post;
}
