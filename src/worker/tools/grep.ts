import { readFile, stat } from 'node:fs/promises';
import { basename, relative, sep } from 'node:path';
import { confine } from './confine';
import type { ToolContext } from './context';
import { globToRegExp, walk } from './files';
import { statOrFail } from './read';
import { capText, ok, optStr, str, ToolError, type Input, type ToolResult } from './result';

const MAX_MATCHES = 1000;
/** Larger files are skipped: a search answers in seconds, not minutes. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** `grep {pattern, path?, glob?}`: `file:line:text` for each matching line; `glob` without `/` matches file names. */
export async function grep(input: Input, ctx: ToolContext): Promise<ToolResult> {
  let re: RegExp;
  try {
    re = new RegExp(str(input, 'pattern'));
  } catch (e) {
    throw new ToolError(`input.pattern is not a valid regular expression: ${(e as Error).message}`);
  }
  const pathShown = optStr(input, 'path') ?? '.';
  const base = await confine(ctx, pathShown);
  const filter = optStr(input, 'glob');
  const globRe = filter === undefined ? undefined : globToRegExp(filter);
  const files = (await statOrFail(base, pathShown)).isDirectory() ? walk(ctx.workdir, base, ctx.signal) : one(relative(ctx.workdir, base).split(sep).join('/'));
  const hits: string[] = [];
  let more = 0;
  for await (const rel of files) {
    if (globRe && !globRe.test(filter!.includes('/') ? rel : basename(rel))) continue;
    const full = `${ctx.workdir}/${rel}`;
    if ((await stat(full)).size > MAX_FILE_BYTES) continue;
    const buf = await readFile(full);
    if (buf.includes(0)) continue; // binary
    const lines = buf.toString('utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!re.test(lines[i])) continue;
      if (hits.length < MAX_MATCHES) hits.push(`${rel}:${i + 1}:${lines[i]}`);
      else more++;
    }
  }
  if (hits.length === 0) return ok('no matches');
  return ok(capText(hits.join('\n'), ctx.maxOutputChars) + (more ? `\n[output truncated: ${more} more matches]` : ''));
}

async function* one(rel: string): AsyncGenerator<string> {
  yield rel;
}
