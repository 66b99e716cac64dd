import { close as fsClose, constants, open as fsOpen, promises as fsp, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InterruptedError, UsageError } from '../runtime/errors';
import type { Io } from '../runtime/io';
import { LIMITS, MiB } from '../wire/limits';

/** A bounded read: what is read (for messages), its limit in bytes, and the Ctrl-C signal. */
export interface ReadLimit {
  what: string;
  limit: number;
  signal?: AbortSignal;
  /** The limit is svc's own, for this kind of file (a state file, a secret), not the service's. */
  localLimitOf?: string;
}

export const tooLarge = (what: string, limit: number, localLimitOf?: string): UsageError =>
  new UsageError(
    localLimitOf
      ? `${what} is larger than ${formatLimit(limit)}, svc's own limit for ${localLimitOf}`
      : `${what} is larger than ${formatLimit(limit)}, the most the service accepts here`,
  );

const formatLimit = (bytes: number): string => (bytes >= MiB ? `${bytes / MiB} MiB` : `${bytes} bytes`);

/**
 * Settles with `work`, or rejects with InterruptedError as soon as `signal` aborts: a read that waits
 * (a FIFO without a writer, a terminal) never outlives Ctrl-C. `onAbort` releases what the wait holds.
 */
function interruptible<T>(work: Promise<T>, signal: AbortSignal | undefined, onAbort?: () => void): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    onAbort?.();
    return Promise.reject(new InterruptedError());
  }
  return new Promise<T>((resolvePromise, reject) => {
    const abort = () => {
      onAbort?.();
      reject(new InterruptedError());
    };
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (v) => (signal.removeEventListener('abort', abort), resolvePromise(v)),
      (e) => (signal.removeEventListener('abort', abort), reject(e)),
    );
  });
}

/** Reads a stream (standard input, a pipe) to its end, refusing it once it passes the limit. */
export async function readStream(stream: AsyncIterable<Buffer | string>, o: ReadLimit): Promise<Buffer> {
  const it = stream[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for (;;) {
      const r = await interruptible(it.next(), o.signal);
      if (r.done) return Buffer.concat(chunks);
      const b = typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
      size += b.length;
      if (size > o.limit) throw tooLarge(o.what, o.limit, o.localLimitOf);
      chunks.push(b);
    }
  } finally {
    // Stop the source: a pipe that keeps writing (`yes |`) must not keep the process alive.
    void it.return?.();
  }
}

/** A read line by line: what is read (for messages), the longest line svc reads, and the Ctrl-C signal. */
export interface LineLimit {
  what: string;
  maxLine: number;
  signal?: AbortSignal;
}

/** One line of a stream: its text (without the line break) and its number, 1-based as an editor counts. */
export interface Line {
  n: number;
  text: string;
}

/**
 * A stream as lines, in constant memory whatever its size, handed over a chunk's worth at a time (a million short
 * lines cost no million awaits): each line at most `maxLine` bytes (a longer one is exit 2 naming it, read no
 * further). `\r\n` ends a line too; a last line without a break counts.
 */
export async function* readLines(stream: AsyncIterable<Buffer | string>, o: LineLimit): AsyncGenerator<Line[]> {
  const it = stream[Symbol.asyncIterator]();
  let parts: Buffer[] = [];
  let size = 0;
  let n = 0;
  const line = (tail: Buffer): Line => {
    const b = parts.length ? Buffer.concat([...parts, tail]) : tail;
    parts = [];
    size = 0;
    const text = b.toString('utf8');
    return { n: ++n, text: text.endsWith('\r') ? text.slice(0, -1) : text };
  };
  const tooLong = () =>
    new UsageError(`${o.what} line ${n + 1} is longer than ${formatLimit(o.maxLine)}: svc reads at most ${formatLimit(o.maxLine)} per line`);
  try {
    for (;;) {
      const r = await interruptible(it.next(), o.signal);
      if (r.done) break;
      const b = typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
      const lines: Line[] = [];
      let from = 0;
      for (let at = b.indexOf(10); at !== -1; at = b.indexOf(10, from)) {
        if (size + at - from > o.maxLine) throw tooLong();
        lines.push(line(b.subarray(from, at)));
        from = at + 1;
      }
      size += b.length - from;
      if (size > o.maxLine) throw tooLong();
      if (from < b.length) parts.push(b.subarray(from));
      if (lines.length) yield lines;
    }
    if (size > 0) yield [line(Buffer.alloc(0))];
  } finally {
    // Stop the source: a pipe that keeps writing (`yes |`) must not keep the process alive.
    void it.return?.();
  }
}

/**
 * Reads a file named on the command line, bounded and interruptible. Regular files and pipes (a FIFO,
 * `<(cmd)`) are read; devices, sockets and folders are refused, since they have no end to read to.
 * Errors name the file and the reason, never its content (it may hold a secret).
 */
export async function readInputFile(name: string, cwd: string, o: ReadLimit): Promise<Buffer> {
  const path = resolve(cwd, name);
  let st: Stats;
  try {
    st = await fsp.stat(path);
  } catch (e) {
    throw cannotRead(name, e);
  }
  if (st.isFile()) {
    if (st.size > o.limit) throw tooLarge(name, o.limit, o.localLimitOf);
    return readRegular(name, path, o);
  }
  if (st.isFIFO()) return readPipe(name, path, o);
  throw new UsageError(`cannot read ${name}: ${kindOf(st)}, not a regular file or a pipe`);
}

async function readRegular(name: string, path: string, o: ReadLimit): Promise<Buffer> {
  let fh: FileHandle | undefined;
  try {
    fh = await fsp.open(path, 'r');
    // The file may have grown since stat: count while reading, never trust the size alone.
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const { bytesRead, buffer } = await fh.read({ buffer: Buffer.alloc(64 * 1024) });
      if (bytesRead === 0) return Buffer.concat(chunks, size);
      size += bytesRead;
      if (size > o.limit) throw tooLarge(name, o.limit, o.localLimitOf);
      chunks.push(buffer.subarray(0, bytesRead));
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw cannotRead(name, e);
  } finally {
    await fh?.close();
  }
}

const openFd = (path: string, flags: number): Promise<number> => new Promise((ok, fail) => fsOpen(path, flags, (err, fd) => (err ? fail(err) : ok(fd))));

/**
 * A FIFO's open waits for a writer (in libuv's thread pool, so the event loop and Ctrl-C stay live);
 * once open it is read as a pipe through the event loop, so a writer that never writes is interruptible too.
 */
async function readPipe(name: string, path: string, o: ReadLimit): Promise<Buffer> {
  const pipe = await openPipe(name, path, o.signal);
  try {
    return await readStream(pipe, { ...o, what: name });
  } finally {
    pipe.destroy();
  }
}

/** A FIFO opened for reading (see readPipe); the caller destroys the socket, which closes the descriptor. */
async function openPipe(name: string, path: string, signal: AbortSignal | undefined): Promise<import('node:net').Socket> {
  const o = { signal };
  const opening = openFd(path, constants.O_RDONLY);
  // On Ctrl-C, release the thread-pool thread blocked in open(2) by briefly becoming the writer.
  const release = () =>
    void openFd(path, constants.O_WRONLY | constants.O_NONBLOCK).then(
      (w) => fsClose(w, () => undefined),
      () => undefined,
    );
  opening.then(
    (fd) => (o.signal?.aborted ? fsClose(fd, () => undefined) : undefined),
    () => undefined,
  );
  let fd: number;
  try {
    fd = await interruptible(opening, o.signal, release);
  } catch (e) {
    if (e instanceof InterruptedError) throw e;
    throw cannotRead(name, e);
  }
  const { Socket } = await import('node:net');
  // The socket owns the descriptor from here and closes it when destroyed.
  return new Socket({ fd, readable: true, writable: false });
}

/**
 * A file named on the command line as lines (readLines), in constant memory however large: regular files and pipes
 * only, as readInputFile.
 */
export async function* fileLines(io: Pick<Io, 'cwd' | 'signal'>, name: string, maxLine: number): AsyncGenerator<Line[]> {
  const path = resolve(io.cwd, name);
  let st: Stats;
  try {
    st = await fsp.stat(path);
  } catch (e) {
    throw cannotRead(name, e);
  }
  if (!st.isFile() && !st.isFIFO()) throw new UsageError(`cannot read ${name}: ${kindOf(st)}, not a regular file or a pipe`);
  const { createReadStream } = await import('node:fs');
  const source = st.isFIFO() ? await openPipe(name, path, io.signal) : createReadStream(path);
  try {
    yield* readLines(source, { what: name, maxLine, signal: io.signal });
  } catch (e) {
    // An error while reading (EIO) names the file, never its content.
    if (e instanceof UsageError || e instanceof InterruptedError) throw e;
    throw cannotRead(name, e);
  } finally {
    source.destroy();
  }
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'a special file';
}

export function cannotRead(name: string, e: unknown): UsageError {
  return new UsageError(`cannot read ${name}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`);
}

/** One trailing newline is the shell's (`echo`) or the editor's, not the text's. */
export const chompNewline = (s: string): string => s.replace(/\r?\n$/, '');

/** Standard input as text: at most `limit` bytes (the spec's JSON body limit by default), interruptible. */
export async function stdinText(io: Pick<Io, 'stdin' | 'signal'>, limit: number = LIMITS.jsonBody): Promise<string> {
  return (await readStream(io.stdin, { what: 'standard input', limit, signal: io.signal })).toString('utf8');
}

/** A file named on the command line as text: bounded, interruptible, regular files and pipes only. */
export async function fileText(io: Pick<Io, 'cwd' | 'signal'>, name: string, limit: number = LIMITS.jsonBody): Promise<string> {
  return (await readInputFile(name, io.cwd, { what: name, limit, signal: io.signal })).toString('utf8');
}
