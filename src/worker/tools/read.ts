import { readFile, stat } from 'node:fs/promises';
import { confine } from './confine';
import type { ToolContext } from './context';
import { capText, ok, optInt, str, ToolError, type Input, type ToolResult } from './result';

const DEFAULT_LINES = 2000;

/** `read {path, offset?, limit?}`: lines numbered like `cat -n`; `offset` is the first line (1-based), `limit` the count. */
export async function read(input: Input, ctx: ToolContext): Promise<ToolResult> {
  const path = await confine(ctx, str(input, 'path'));
  const offset = optInt(input, 'offset', 1) ?? 1;
  const limit = optInt(input, 'limit', 1) ?? DEFAULT_LINES;
  if ((await statOrFail(path, input.path as string)).isDirectory()) throw new ToolError(`${input.path} is a directory`);
  const lines = (await readFile(path, 'utf8')).split('\n');
  if (lines.at(-1) === '') lines.pop();
  const shown = lines.slice(offset - 1, offset - 1 + limit).map((l, i) => `${String(offset + i).padStart(6)}\t${l}`);
  const more = lines.length > offset - 1 + limit ? `\n[${lines.length - (offset - 1 + limit)} more lines; read on with offset ${offset + limit}]` : '';
  return ok(capText(shown.join('\n'), ctx.maxOutputChars) + more);
}

export async function statOrFail(path: string, shown: string) {
  try {
    return await stat(path);
  } catch (e) {
    throw new ToolError(`${shown}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}
