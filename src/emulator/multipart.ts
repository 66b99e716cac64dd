/**
 * Uploads and downloads of the emulator: a streaming multipart/form-data reader (busboy) that writes the
 * `file` part to disk while hashing and counting it (a 100 MiB file never sits in memory), the
 * Idempotency-Key handling of raw-body routes, and the byte downloads of files, packages and artifacts.
 */
import busboy from 'busboy';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
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

/**
 * Streams a multipart/form-data body, parsed by busboy: fields into memory, the `file` part to disk while it is hashed
 * and counted. Over `limit` bytes: 400 invalid_request_error, answered once the whole body is read.
 */
export async function readMultipart(r: EmuRequest, dir: string, limit: number): Promise<Omit<Form, 'claim'>> {
  const type = r.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(type)) {
    await drain(r.req);
    fail('invalid_request_error', `Content-Type ${type || '(none)'} is not accepted here; send multipart/form-data`);
  }
  // The fingerprint of the request as IdempotencyStore computes it, over the bytes as they arrive.
  const hash = createHash('sha256').update(`${r.method}\0${r.path}\0`);
  const fields: Record<string, string> = {};
  const saving: Array<Promise<UploadedFile | undefined>> = [];
  let failure: unknown;
  const refuse = (refusal: () => never) => {
    try {
      refusal();
    } catch (e) {
      failure ??= e;
    }
  };
  const parser = busboy({ headers: r.headers, limits: { fieldSize: FIELD_LIMIT, fileSize: limit + 1, files: 1 }, defParamCharset: 'utf8' });
  parser.on('field', (name, value, info) => {
    if (!name) refuse(() => fail('invalid_request_error', 'a multipart part has no name'));
    else if (info.valueTruncated) refuse(() => fail('invalid_request_error', `the multipart field ${name} is larger than ${FIELD_LIMIT} bytes`));
    else if (name === FILE_FIELD) saving.push(saveFile(Readable.from([Buffer.from(value)]), { filename: 'upload', mimeType: info.mimeType }, dir));
    else fields[name] = value;
  });
  parser.on('file', (name, stream, info) => {
    if (name !== FILE_FIELD) {
      // A part of another name with a file name is still a small text field.
      const read = readField(stream).then(
        (text) => void (name ? (fields[name] = text) : refuse(() => fail('invalid_request_error', 'a multipart part has no name'))),
      );
      saving.push(read.catch((e: unknown) => void (failure ??= e)));
      return;
    }
    saving.push(saveFile(stream, { filename: info.filename ?? 'upload', mimeType: info.mimeType }, dir));
  });
  parser.on('filesLimit', () => refuse(() => invalidParam(`body.${FILE_FIELD}`, 'send one file part')));
  const closed = new Promise<void>((resolve) => {
    parser.once('close', resolve);
    parser.once('error', (e: Error) => {
      refuse(() =>
        fail(
          'invalid_request_error',
          /unexpected end/i.test(e.message) ? 'the multipart body ended before its closing boundary' : `the multipart body is malformed: ${e.message}`,
        ),
      );
      resolve();
    });
  });
  // Errors wait for the end of the body: leaving a for-await loop early would destroy the socket before the 400.
  for await (const chunk of r.req) {
    hash.update(chunk as Buffer);
    if (failure === undefined && !parser.write(chunk)) await Promise.race([once(parser, 'drain'), closed]);
  }
  parser.end();
  await closed;
  const files = (await Promise.all(saving)).filter((f): f is UploadedFile => f !== undefined);
  const tooLarge = files.find((f) => f.size > limit);
  if (failure === undefined && tooLarge) refuse(() => fail('invalid_request_error', `the uploaded file is larger than ${limit} bytes`));
  if (failure !== undefined) {
    for (const f of files) removeBlob(f.path);
    throw failure;
  }
  return { fields, file: files[0], fingerprint: hash.digest('hex') };
}

/** A file part to disk: its size, SHA-256 and first bytes counted on the way. busboy stops at the limit and marks it. */
async function saveFile(stream: Readable & { truncated?: boolean }, info: { filename: string; mimeType: string }, dir: string): Promise<UploadedFile> {
  const path = join(dir, randomBytes(12).toString('hex'));
  const out = createWriteStream(path);
  const sha = createHash('sha256');
  let head = Buffer.alloc(0);
  let size = 0;
  try {
    for await (const data of stream as AsyncIterable<Buffer>) {
      size += data.length;
      if (head.length < 16) head = Buffer.concat([head, data.subarray(0, 16)]);
      sha.update(data);
      if (!out.write(data)) await once(out, 'drain');
    }
  } finally {
    await closeStream(out);
  }
  // busboy keeps at most limit + 1 bytes (its limit is one over ours, so a file of exactly `limit` is whole): a
  // truncated file is over the limit, whatever busboy kept.
  if (stream.truncated) size = Number.MAX_SAFE_INTEGER;
  return { path, filename: info.filename, mimeType: info.mimeType, size, sha256: sha.digest('hex'), head: head.subarray(0, 16) };
}

/** A small text part, refused past FIELD_LIMIT. */
async function readField(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const data of stream as AsyncIterable<Buffer>) {
    size += data.length;
    if (size <= FIELD_LIMIT) chunks.push(data);
  }
  if (size > FIELD_LIMIT) fail('invalid_request_error', `a multipart field is larger than ${FIELD_LIMIT} bytes`);
  return Buffer.concat(chunks).toString('utf8');
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
