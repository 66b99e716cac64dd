/**
 * Uploads and downloads of the emulator: a streaming multipart/form-data reader that writes the
 * `file` part to disk while hashing and counting it (a 100 MiB file never sits in memory), the
 * Idempotency-Key handling of raw-body routes, and the byte downloads of files, packages and artifacts.
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDEMPOTENCY_HEADER } from '../wire/version';
import { HttpError, errorBody, fail, invalidParam } from './errors';
import { STREAMED, type EmuRequest, type Reply } from './router';
import type { Emulator } from './server';

/** Form fields other than the file are small text values. */
const FIELD_LIMIT = 64 * 1024;
const FILE_FIELD = 'file';

export interface UploadedFile {
  /** Temp file under the emulator's blob directory; removed unless the handler calls `claim`. */
  path: string;
  filename: string;
  mimeType: string;
  size: number;
  sha256: string;
  /** The first bytes, for sniffing (a zip starts with `PK\x03\x04`). */
  head: Buffer;
}

export interface Form {
  fields: Record<string, string>;
  file?: UploadedFile;
  /** SHA-256 over method, path and the body bytes, as IdempotencyStore.fingerprint computes it. */
  fingerprint: string;
  /** The handler keeps the temp file (it now belongs to a record). */
  claim(): UploadedFile;
}

const blobDirs = new WeakMap<Emulator, string>();

/** The emulator's temp directory for uploaded bytes, removed on close. */
export function blobDir(emu: Emulator): string {
  let dir = blobDirs.get(emu);
  if (!dir) {
    const created = mkdtempSync(join(tmpdir(), 'svc-emu-'));
    blobDirs.set(emu, created);
    emu.onClose(() => rmSync(created, { recursive: true, force: true }));
    dir = created;
  }
  return dir;
}

export const removeBlob = (path: string): void => rmSync(path, { force: true });

/** A multipart route: reads the form, applies Idempotency-Key on the streamed bytes, and drops an unclaimed file. */
export async function acceptUpload(emu: Emulator, r: EmuRequest, limit: number, handle: (form: Form) => Reply | Promise<Reply>): Promise<Reply> {
  const form = await readMultipart(r, blobDir(emu), limit);
  let claimed = false;
  const owned: Form = { ...form, claim: () => ((claimed = true), required(form.file)) };
  const header = r.headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(header) ? header[0] : header;
  try {
    if (key === undefined) return await handle(owned);
    // The core cannot fingerprint a body it did not read: do what it does, on the streamed hash.
    const replay = emu.idempotency.begin('api', key, form.fingerprint);
    if (replay) {
      emu.faults.count('idempotent_replays');
      return { status: replay.status, body: replay.body };
    }
    try {
      const reply = await handle(owned);
      if (reply !== STREAMED) emu.idempotency.finish('api', key, reply.status, reply.body);
      return reply;
    } catch (e) {
      emu.idempotency.finish('api', key, e instanceof HttpError ? e.status : 500, e instanceof HttpError ? errorBody(e, r.requestId) : undefined);
      throw e;
    }
  } finally {
    if (!claimed && form.file) removeBlob(form.file.path);
  }
}

function required(file: UploadedFile | undefined): UploadedFile {
  return file ?? invalidParam(`body.${FILE_FIELD}`, `the multipart part "${FILE_FIELD}" is required`);
}

/** Streams a multipart/form-data body: fields into memory, the `file` part to disk. Over `limit` bytes: 400 invalid_request_error. */
export async function readMultipart(r: EmuRequest, dir: string, limit: number): Promise<Omit<Form, 'claim'>> {
  const type = r.headers['content-type'] ?? '';
  const m = /^multipart\/form-data\s*;.*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (!m) {
    await drain(r.req);
    fail('invalid_request_error', `Content-Type ${type || '(none)'} is not accepted here; send multipart/form-data`);
  }
  const parser = new MultipartParser(m[1] ?? m[2], dir, limit);
  parser.hash.update(`${r.method}\0${r.path}\0`);
  // Errors wait for the end of the body: leaving a for-await loop early would destroy the socket before the 400.
  let error: unknown;
  for await (const chunk of r.req) {
    if (error !== undefined) continue;
    try {
      await parser.push(chunk as Buffer);
    } catch (e) {
      error = e;
    }
  }
  try {
    if (error !== undefined) throw error;
    return await parser.end();
  } catch (e) {
    await parser.abort();
    throw e;
  }
}

type State = 'preamble' | 'headers' | 'body' | 'done';

interface Part {
  name: string;
  filename?: string;
  mimeType: string;
  size: number;
  chunks: Buffer[];
  out?: WriteStream;
  path?: string;
  sha?: Hash;
  head?: Buffer;
}

class MultipartParser {
  readonly hash = createHash('sha256');
  private readonly delimiter: Buffer;
  // A leading CRLF lets the first boundary match the same delimiter as the others.
  private buf = Buffer.from('\r\n');
  private state: State = 'preamble';
  private part?: Part;
  private tooLarge = false;
  private readonly fields: Record<string, string> = {};
  private file?: UploadedFile;

  constructor(
    boundary: string,
    private readonly dir: string,
    private readonly limit: number,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  async push(chunk: Buffer): Promise<void> {
    this.hash.update(chunk);
    if (this.state === 'done') return;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : Buffer.from(chunk);
    for (;;) {
      if (this.state === 'headers') {
        const end = this.buf.indexOf('\r\n\r\n');
        if (end < 0) {
          if (this.buf.length > FIELD_LIMIT) fail('invalid_request_error', 'a multipart part header is too long');
          return;
        }
        this.startPart(this.buf.subarray(0, end).toString('utf8'));
        this.buf = this.buf.subarray(end + 4);
        this.state = 'body';
        continue;
      }
      const at = this.buf.indexOf(this.delimiter);
      if (at < 0) {
        // Keep only a tail that may start the delimiter (it starts with CR), so most chunks need no concat.
        const cr = this.buf.indexOf(13, Math.max(0, this.buf.length - this.delimiter.length));
        const safe = cr < 0 ? this.buf.length : cr;
        if (this.state === 'body') await this.write(this.buf.subarray(0, safe));
        this.buf = Buffer.from(this.buf.subarray(safe));
        return;
      }
      const after = at + this.delimiter.length;
      if (this.buf.length < after + 2) return;
      if (this.state === 'body') {
        await this.write(this.buf.subarray(0, at));
        await this.finishPart();
      }
      const tail = this.buf.subarray(after, after + 2).toString('latin1');
      this.buf = this.buf.subarray(after + 2);
      if (tail === '--') {
        this.state = 'done';
        return;
      }
      this.state = 'headers';
    }
  }

  async end(): Promise<Omit<Form, 'claim'>> {
    if (this.state !== 'done') fail('invalid_request_error', 'the multipart body ended before its closing boundary');
    if (this.tooLarge) fail('invalid_request_error', `the uploaded file is larger than ${this.limit} bytes`);
    return { fields: this.fields, file: this.file, fingerprint: this.hash.digest('hex') };
  }

  async abort(): Promise<void> {
    const p = this.part;
    if (p?.out) await closeStream(p.out);
    if (p?.path) removeBlob(p.path);
    if (this.file) removeBlob(this.file.path);
  }

  private startPart(headerText: string): void {
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headerText)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) fail('invalid_request_error', 'a multipart part has no name');
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    const mimeType = /content-type:\s*([^\r\n]+)/i.exec(headerText)?.[1].trim() ?? 'application/octet-stream';
    const part: Part = { name, filename, mimeType, size: 0, chunks: [] };
    if (name === FILE_FIELD) {
      if (this.file) invalidParam(`body.${FILE_FIELD}`, 'send one file part');
      part.path = join(this.dir, randomBytes(12).toString('hex'));
      part.out = createWriteStream(part.path);
      part.sha = createHash('sha256');
      part.head = Buffer.alloc(0);
    }
    this.part = part;
  }

  private async write(data: Buffer): Promise<void> {
    const p = this.part;
    if (!p || data.length === 0) return;
    p.size += data.length;
    if (!p.out) {
      if (p.size > FIELD_LIMIT) fail('invalid_request_error', `the multipart field ${p.name} is larger than ${FIELD_LIMIT} bytes`);
      p.chunks.push(Buffer.from(data));
      return;
    }
    // Over the limit: keep reading to answer 400 cleanly, but stop storing.
    if (p.size > this.limit) {
      this.tooLarge = true;
      return;
    }
    if (p.head!.length < 16) p.head = Buffer.concat([p.head!, data.subarray(0, 16)]);
    p.sha!.update(data);
    if (!p.out.write(data)) await new Promise<void>((resolve) => p.out!.once('drain', () => resolve()));
  }

  private async finishPart(): Promise<void> {
    const p = this.part!;
    this.part = undefined;
    if (!p.out) {
      this.fields[p.name] = Buffer.concat(p.chunks).toString('utf8');
      return;
    }
    await closeStream(p.out);
    this.file = {
      path: p.path!,
      filename: p.filename ?? 'upload',
      mimeType: p.mimeType,
      size: p.size,
      sha256: p.sha!.digest('hex'),
      head: p.head!.subarray(0, 16),
    };
  }
}

function closeStream(out: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    out.once('error', reject);
    out.end(() => resolve());
  });
}

async function drain(req: IncomingMessage): Promise<void> {
  if (req.readableEnded) return;
  for await (const _ of req) {
    // discard the rest so the client reads our answer
  }
}

/** Where a download's bytes come from: a blob on disk or bytes held in memory (artifacts). */
export type Content = { path: string; size: number } | Buffer;

/** Writes a download with its content type and file name; the router sends nothing more. */
export function sendContent(r: EmuRequest, content: Content, contentType: string, filename: string): Reply {
  const size = Buffer.isBuffer(content) ? content.length : content.size;
  r.res.writeHead(200, {
    'content-type': contentType,
    'content-length': size,
    'content-disposition': `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`,
  });
  if (Buffer.isBuffer(content)) r.res.end(content);
  else createReadStream(content.path).pipe(r.res);
  return STREAMED;
}
