import type { Env } from '../config/paths';
import { InterruptedError } from '../runtime/errors';
import { holdForeground } from '../runtime/foreground';
import { findProgram, pathDirs } from '../fs/find-program';
import { write, type OutStream } from '../runtime/io';
import { splitWords } from '../text/shell-words';
import { displayWidth } from './width';

/** The pager long human output goes through: a command line, the environment it runs with, and svc's signal. */
export interface Pager {
  command: string;
  env: Env;
  signal?: AbortSignal;
}

/**
 * The pager, as gh and git choose one: `SVC_PAGER`, else `PAGER`, else `less` (with `LESS=FRX` when `LESS` is unset,
 * so it quits on a short text, keeps colour and leaves the screen as it was). None off a terminal, under `CI`, with
 * `--no-pager`, or when the chosen one is empty or `cat`.
 */
export function pagerFor(io: { env: Env; stdout: OutStream; signal?: AbortSignal }, allowed: boolean): Pager | undefined {
  const { env } = io;
  if (!allowed || !io.stdout.isTTY || env.CI) return undefined;
  const command = (env.SVC_PAGER ?? env.PAGER ?? 'less').trim();
  if (command === '' || command === 'cat') return undefined;
  return { command, env: { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' }, signal: io.signal };
}

/** Text for the terminal: through the pager when it is longer than the screen, else written as it is. */
export async function showText(stdout: OutStream, text: string, pager: Pager | undefined): Promise<void> {
  if (!pager || !longerThanScreen(text, stdout)) return write(stdout, text);
  if (!(await runPager(pager, text))) await write(stdout, text);
}

/** Whether the text takes more lines than the screen has (a long line wraps), leaving one for the prompt. */
export function longerThanScreen(text: string, screen: { columns?: number; rows?: number }): boolean {
  const { rows, columns } = screen;
  if (!rows || !columns) return false;
  let lines = 0;
  let from = 0;
  while (from < text.length) {
    const end = text.indexOf('\n', from);
    const line = text.slice(from, end < 0 ? undefined : end);
    lines += Math.max(1, Math.ceil(displayWidth(line) / columns));
    if (lines >= rows) return true;
    if (end < 0) break;
    from = end + 1;
  }
  return false;
}

/** What only a shell runs: a pipe, a list, a redirection, a substitution. */
const SHELL = /[|&;<>()$`]/;

function trySplit(line: string): string[] | undefined {
  try {
    return splitWords(line);
  } catch {
    return undefined;
  }
}

/**
 * The pager's program and arguments: its words, the program found in PATH's absolute folders (src/fs/find-program.ts)
 * or given as an absolute path. A line only a shell runs (a pipe, `$VAR`) runs in /bin/sh with PATH's absolute folders
 * alone, so it finds its programs the same way. Undefined when there is no such program.
 */
function pagerArgv(pager: Pager): { file: string; args: string[]; env: Env } | undefined {
  const words = SHELL.test(pager.command) ? undefined : trySplit(pager.command);
  if (!words) return { file: '/bin/sh', args: ['-c', pager.command], env: { ...pager.env, PATH: pathDirs(pager.env).join(':') } };
  const [program, ...args] = words;
  const file = program?.startsWith('/') ? program : findProgram(program ?? '', pager.env);
  return file ? { file, args, env: pager.env } : undefined;
}

/**
 * Pipes the text into the pager and waits for it to end. A pager that quits before reading it all (`q` in less)
 * closes the pipe: that is the reader's choice, not an error. False when the pager could not run at all (no such
 * program), so the caller prints the text itself. svc's signal goes to the pager (src/runtime/foreground.ts), and once the
 * pager has ended after one, the command is interrupted (130), never a success that showed nothing.
 */
async function runPager(pager: Pager, text: string): Promise<boolean> {
  const run = pagerArgv(pager);
  if (!run) return false;
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn(run.file, run.args, { stdio: ['pipe', 'inherit', 'inherit'], env: run.env });
    const release = holdForeground(child, pager.signal, true);
    child.on('error', () => {
      release();
      resolve(false);
    });
    child.stdin.on('error', () => undefined);
    child.on('close', (code, signal) => {
      release();
      // Ctrl-C on the terminal reaches the pager and svc at once, and the pager's end may be seen before svc's own
      // signal: a pager ended by a signal is the interruption too, told by Node or by the shell it ran in (128 + N).
      if (pager.signal?.aborted || signal !== null || diedOfSignal(code)) reject(new InterruptedError());
      else resolve(code !== 126 && code !== 127);
    });
    child.stdin.end(text);
  });
}

/** A shell's exit status for a command a signal ended: 128 + the signal's number. */
const diedOfSignal = (code: number | null): boolean => code !== null && code > 128 && code <= 128 + 64;
