import type { Env } from './config/paths';

export interface OutStream {
  write(chunk: string | Uint8Array, cb?: (err?: Error | null) => void): boolean;
  once(event: 'drain', listener: () => void): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface InStream extends AsyncIterable<Buffer | string> {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

/** Everything a command touches outside itself, injected so tests run in-process. */
export interface Io {
  stdin: InStream;
  stdout: OutStream;
  stderr: OutStream;
  env: Env;
  cwd: string;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Aborted on Ctrl-C / SIGTERM. */
  signal?: AbortSignal;
}

/** Writes and waits for drain when the stream's buffer is full. */
export function write(stream: OutStream, chunk: string | Uint8Array): Promise<void> | void {
  if (!stream.write(chunk)) return new Promise((resolve) => stream.once('drain', () => resolve()));
}
