import { basename, relative, sep } from 'node:path';
import { confine } from './confine';
import type { ToolContext } from './context';
import { globMatcher, walk } from './files';
import { LineMatcher } from './matcher';
import { MAX_FILE_BYTES, openRegular, readAll } from './open';
import { statOrFail } from './read';
import { capText, ok, optStr, str, ToolError, type Input, type ToolResult } from './result';

const MAX_MATCHES = 1000;

/**
 * `grep {pattern, path?, glob?}`: `file:line:text` for each matching line; `glob` without `/` matches file names.
 * Files over {@link MAX_FILE_BYTES}, binary files and anything but regular files are skipped in a folder.
 */
export async function grep(input: Input, ctx: ToolContext): Promise<ToolResult> {
  const pattern = str(input, 'pattern');
  try {
    new RegExp(pattern);
  } catch (e) {
    throw new ToolError(`input.pattern is not a valid regular expression: ${(e as Error).message}`);
  }
  const pathShown = optStr(input, 'path') ?? '.';
  const base = await confine(ctx, pathShown);
  const filter = optStr(input, 'glob');
  const matches = filter === undefined ? undefined : globMatcher(filter);
  const single = !(await statOrFail(base, pathShown)).isDirectory();
  const files = single ? one(relative(ctx.workdir, base).split(sep).join('/')) : walk(ctx.workdir, base, ctx.signal);
  const matcher = new LineMatcher(pattern, ctx.signal);
  const hits: string[] = [];
  let more = 0;
  try {
    for await (const rel of files) {
      if (matches && !matches(filter!.includes('/') ? rel : basename(rel))) continue;
      const text = await fileText(single ? base : `${ctx.workdir}/${rel}`, single ? pathShown : rel, single);
      if (text === undefined) continue;
      const found = await matcher.match(text, MAX_MATCHES - hits.length);
      if (found.hits.length > 0) {
        const lines = text.split('\n');
        for (const i of found.hits) hits.push(`${rel}:${i + 1}:${lines[i]}`);
      }
      more += found.count - found.hits.length;
    }
  } finally {
    await matcher.close();
  }
  // A walk cut short by a cancel is not a search that found nothing.
  if (ctx.signal.aborted) throw new ToolError('the search was stopped before it was complete');
  if (hits.length === 0) return ok('no matches');
  return ok(capText(hits.join('\n'), ctx.maxOutputChars) + (more ? `\n[output truncated: ${more} more matches]` : ''));
}

/** A text file's content; a file that cannot be searched is an error when named, skipped (undefined) in a folder. */
async function fileText(path: string, shown: string, named: boolean): Promise<string | undefined> {
  try {
    const handle = await openRegular(path, shown, 'read');
    try {
      const buf = await readAll(handle, shown, MAX_FILE_BYTES);
      if (buf.includes(0)) return undefined; // binary
      return buf.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (e) {
    if (named || !(e instanceof ToolError)) throw e;
    return undefined;
  }
}

async function* one(rel: string): AsyncGenerator<string> {
  yield rel;
}
