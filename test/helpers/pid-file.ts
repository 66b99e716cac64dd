import { readFileSync } from 'node:fs';

/**
 * The pid a shell wrote to a file with `echo $$ > FILE`, once the whole line is there; undefined before (no file, or
 * the empty file `>` makes before `echo` writes). Never 0: `process.kill(0, sig)` signals the caller's whole process
 * group, which in CI is vitest, npm and .ci/run.
 */
export function readPid(path: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const m = /^([1-9]\d*)\n$/.exec(text);
  return m ? Number(m[1]) : undefined;
}
