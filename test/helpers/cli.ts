import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { main } from '../../src/cli/main';
import type { Io } from '../../src/runtime/io';

export interface SvcResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface SvcOptions {
  env?: Record<string, string | undefined>;
  stdin?: string | Buffer;
  stdinTTY?: boolean;
  stdoutTTY?: boolean;
  /** A terminal on stderr: the recovery `hint:` line is shown. */
  stderrTTY?: boolean;
  columns?: number;
  cwd?: string;
  /** Replaces real waits (retries, Retry-After) and records them. */
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
  /** Records the start of the daily update check; by default none starts (a test never spawns one by accident). */
  startUpdateCheck?: (env: Record<string, string | undefined>) => void;
  now?: () => number;
  /** Where stderr is captured, for a test that reads it while svc runs; a fresh one by default. */
  stderr?: Capture;
}

/** A captured output stream; `isTTY` and `columns` fake a terminal. */
export class Capture extends Writable {
  text = '';
  isTTY?: boolean;
  columns?: number;
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

/** A fresh, empty config directory. */
export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-test-'));
}

/** Runs svc in-process with captured streams; the environment holds only what is given. */
export async function svc(args: string[], opts: SvcOptions = {}): Promise<SvcResult> {
  const stdout = new Capture();
  const stderr = opts.stderr ?? new Capture();
  stdout.isTTY = opts.stdoutTTY;
  stdout.columns = opts.columns;
  stderr.isTTY = opts.stderrTTY;
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = opts.stdinTTY;
  stdin.end(opts.stdin ?? '');
  const env: Record<string, string | undefined> = { SVC_CONFIG_DIR: opts.env?.SVC_CONFIG_DIR ?? tempConfigDir(), ...opts.env };
  const io: Io = {
    stdin,
    stdout,
    stderr,
    env,
    cwd: opts.cwd ?? process.cwd(),
    sleep: opts.sleep,
    signal: opts.signal,
    now: opts.now,
    startUpdateCheck: opts.startUpdateCheck ?? (() => {}),
  };
  const code = await main(args, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** The env that points svc at an emulator. */
export function emuEnv(emu: { url: string; apiKey: string }, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { SVC_BASE_URL: emu.url, SVC_API_KEY: emu.apiKey, ...extra };
}

/** The JSON values of NDJSON text, one a line. */
export function ndjson(text: string) {
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Starts svc in-process against `emu` and returns its live stdout/stderr, a Ctrl-C, and the exit code to come. */
export function startSvc(emu: { url: string; apiKey: string }, args: string[], o: { stdoutTTY?: boolean } = {}) {
  const stdin = new PassThrough();
  stdin.end();
  const stdout = new Capture();
  stdout.isTTY = o.stdoutTTY;
  const stderr = new Capture();
  const ctrlC = new AbortController();
  const env = { SVC_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1', ...emuEnv(emu) };
  const code = main(args, { stdin, stdout, stderr, env, cwd: process.cwd(), signal: ctrlC.signal });
  return { stdout, stderr, ctrlC, code, events: () => ndjson(stdout.text) };
}
