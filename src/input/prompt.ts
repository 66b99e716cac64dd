import { InterruptedError, UsageError } from '../runtime/errors';
import type { Io } from '../runtime/io';

/**
 * Standard input has been read to its end (IDs typed, then Ctrl-D): no answer can come from it any more, and a
 * question on it would wait on nothing while the process ends with exit 0.
 */
export function inputEnded(io: Pick<Io, 'stdin'>): boolean {
  const s = io.stdin as unknown as { readableEnded?: boolean; destroyed?: boolean };
  return Boolean(s.readableEnded || s.destroyed);
}

/** A stream that takes everything written to it and shows none of it. */
function mutedOutput(): NodeJS.WritableStream {
  const { Writable } = process.getBuiltinModule('node:stream') as typeof import('node:stream');
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

/** Asks on the terminal; input is not echoed when `hidden`. Callers check `noInput` first. */
export async function prompt(io: Io, question: string, hidden = false): Promise<string> {
  if (inputEnded(io)) throw new UsageError('no answer given: standard input has ended');
  const { createInterface } = await import('node:readline');
  const input = io.stdin as unknown as NodeJS.ReadableStream;
  const output = io.stderr as unknown as NodeJS.WritableStream;
  // Hidden: the question goes to the terminal, and readline's echo of what is typed to a stream that drops it.
  const rl = createInterface({ input, output: hidden ? mutedOutput() : output, terminal: true });
  if (hidden) output.write(question);
  try {
    const answer = await new Promise<string>((resolve, reject) => {
      rl.question(hidden ? '' : question, resolve);
      rl.once('close', () => reject(new UsageError('no answer given')));
      rl.once('SIGINT', () => reject(new InterruptedError()));
    });
    if (hidden) output.write('\n');
    return answer.trim();
  } finally {
    rl.close();
  }
}

/**
 * Asks a yes/no question; anything but y/yes is no. Accessible: a plain question answered with y or n and Enter (an
 * empty answer is no), asked again after anything else.
 */
export async function confirm(io: Io, question: string, accessible = false): Promise<boolean> {
  if (!accessible) return /^y(es)?$/i.test(await prompt(io, `${question} [y/N] `));
  const answers = await plainAnswers(io);
  try {
    for (let ask = `${question} Type y for yes or n for no, then Enter [default n]: `; ; ask = 'Please type y or n, then Enter: ') {
      const answer = (await answers.ask(ask)).toLowerCase();
      if (answer === '' || /^no?$/.test(answer)) return false;
      if (/^y(es)?$/.test(answer)) return true;
    }
  } finally {
    answers.close();
  }
}

export interface PlainAnswers {
  /** Writes the question and returns the next line typed, trimmed. */
  ask(question: string): Promise<string>;
  close(): void;
}

/**
 * Accessible mode's questions: plain lines on stderr, the answers read as the terminal itself echoes them (no raw mode,
 * no redrawn line, nothing a screen reader hears twice), in order, lines typed ahead kept. Ctrl-C is the process's
 * signal (exit 130); the input's end is exit 2.
 */
export async function plainAnswers(io: Io): Promise<PlainAnswers> {
  if (inputEnded(io)) throw new UsageError('no answer given: standard input has ended');
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: io.stdin as unknown as NodeJS.ReadableStream, terminal: false });
  const lines: string[] = [];
  let ended = false;
  let waiting: { resolve: (line: string) => void; reject: (e: Error) => void } | undefined;
  const fail = (e: Error) => {
    waiting?.reject(e);
    waiting = undefined;
  };
  const onAbort = () => fail(new InterruptedError());
  io.signal?.addEventListener('abort', onAbort, { once: true });
  rl.on('line', (line) => {
    if (!waiting) return void lines.push(line);
    waiting.resolve(line);
    waiting = undefined;
  });
  rl.once('close', () => {
    ended = true;
    fail(new UsageError('no answer given'));
  });
  return {
    ask(question) {
      io.stderr.write(question);
      if (io.signal?.aborted) return Promise.reject(new InterruptedError());
      const typed = lines.shift();
      if (typed !== undefined) return Promise.resolve(typed.trim());
      if (ended) return Promise.reject(new UsageError('no answer given'));
      return new Promise<string>((resolve, reject) => (waiting = { resolve: (l) => resolve(l.trim()), reject }));
    },
    close() {
      io.signal?.removeEventListener('abort', onAbort);
      rl.close();
    },
  };
}
