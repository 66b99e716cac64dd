import type { Env } from '../config/paths';

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
  /**
   * Whether stdin is a terminal, when known without building the stdin stream (process stdin: a file or /dev/null
   * is an fs.ReadStream, which loads a dozen modules); else `stdin.isTTY` says.
   */
  stdinIsTTY?: boolean;
  stdout: OutStream;
  stderr: OutStream;
  env: Env;
  cwd: string;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Aborted on Ctrl-C / SIGTERM. */
  signal?: AbortSignal;
  /** Starts the daily update check (src/update/spawn.ts by default; tests record it instead). */
  startUpdateCheck?: (env: Env) => void;
}

/** The run was asked to stop by SIGTERM (a service manager), not Ctrl-C: a long-running reader's clean stop, exit 0. */
export function stoppedByTerm(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && signal.reason === 'SIGTERM';
}

/** Writes and waits for drain when the stream's buffer is full. */
export function write(stream: OutStream, chunk: string | Uint8Array): Promise<void> | void {
  if (!stream.write(chunk)) return new Promise((resolve) => stream.once('drain', () => resolve()));
}
