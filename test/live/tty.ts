/** Terminal-like streams for running the live view in-process: a TTY stdin that takes key presses and a TTY stdout that records. */
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ctx } from '../../src/runtime/context';
import type { GlobalOptions } from '../../src/config/settings';
import type { Io } from '../../src/runtime/io';

export class FakeTtyIn extends EventEmitter {
  isTTY = true;
  /** Every raw-mode change, in order (the last must be false). */
  rawModes: boolean[] = [];
  private queue: string[] = [];
  constructor() {
    super();
    // As a Readable does: a reader that starts listening is told of what is already buffered.
    this.on('newListener', (event) => {
      if (event === 'readable') setImmediate(() => this.queue.length && this.emit('readable'));
    });
  }
  setRawMode(mode: boolean) {
    this.rawModes.push(mode);
    return this;
  }
  setEncoding() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read(): string | null {
    return this.queue.shift() ?? null;
  }
  press(data: string) {
    this.queue.push(data);
    this.emit('readable');
  }
  /** Input the terminal holds before anything reads it (typed ahead): no `readable` until a reader asks. */
  typeAhead(data: string) {
    this.queue.push(data);
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<string> {}
}

export class FakeTtyOut extends EventEmitter {
  isTTY = true;
  columns = 120;
  rows = 40;
  text = '';
  write(chunk: string | Uint8Array, cb?: () => void): boolean {
    this.text += String(chunk);
    cb?.();
    return true;
  }
  /** What was written, without escape sequences. */
  get plain(): string {
    return this.text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
  }
}

/** A Ctx on fake TTY streams pointed at an emulator. */
export function ttyCtx(emu: { url: string; apiKey: string }, signal?: AbortSignal): { ctx: Ctx; stdin: FakeTtyIn; stdout: FakeTtyOut } {
  const stdin = new FakeTtyIn();
  const stdout = new FakeTtyOut();
  const stderr = new FakeTtyOut();
  const env = { SVC_BASE_URL: emu.url, SVC_API_KEY: emu.apiKey, SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-live-')) };
  const io: Io = { stdin, stdout, stderr, env, cwd: process.cwd(), signal };
  return { ctx: new Ctx(io, {} as GlobalOptions), stdin, stdout };
}
