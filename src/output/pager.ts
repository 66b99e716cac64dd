import type { Env } from '../config/paths';
import { write, type OutStream } from '../io';
import { displayWidth } from './width';

/** The pager long human output goes through: a shell command and the environment it runs with. */
export interface Pager {
  command: string;
  env: Env;
}

/**
 * The pager, as gh and git choose one: `SVC_PAGER`, else `PAGER`, else `less` (with `LESS=FRX` when `LESS` is unset,
 * so it quits on a short text, keeps colour and leaves the screen as it was). None off a terminal, under `CI`, with
 * `--no-pager`, or when the chosen one is empty or `cat`.
 */
export function pagerFor(io: { env: Env; stdout: OutStream }, allowed: boolean): Pager | undefined {
  const { env } = io;
  if (!allowed || !io.stdout.isTTY || env.CI) return undefined;
  const command = (env.SVC_PAGER ?? env.PAGER ?? 'less').trim();
  if (command === '' || command === 'cat') return undefined;
  return { command, env: { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' } };
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

/**
 * Pipes the text into the pager and waits for it to end. A pager that quits before reading it all (`q` in less)
 * closes the pipe: that is the reader's choice, not an error. False when the pager could not run at all (the shell
 * found no such command), so the caller prints the text itself.
 */
async function runPager(pager: Pager, text: string): Promise<boolean> {
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    const child = spawn(pager.command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: pager.env });
    child.on('error', () => resolve(false));
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => resolve(code !== 126 && code !== 127));
    child.stdin.end(text);
  });
}
