import { confine } from './confine';
import type { ToolContext } from './context';
import { globMatcher, walk } from './files';
import { statOrFail } from './read';
import { ok, optStr, str, ToolError, type Input, type ToolResult } from './result';

const MAX_MATCHES = 1000;

/** `glob {pattern, path?}`: matching files, relative to the workdir, in name order. */
export async function glob(input: Input, ctx: ToolContext): Promise<ToolResult> {
  const pattern = str(input, 'pattern');
  const base = await confine(ctx, optStr(input, 'path') ?? '.');
  if (!(await statOrFail(base, String(input.path ?? '.'))).isDirectory()) throw new ToolError(`${input.path} is not a directory`);
  const matches = globMatcher(pattern);
  const prefix =
    base === ctx.workdir
      ? ''
      : base
          .slice(ctx.workdir.length + 1)
          .split('\\')
          .join('/') + '/';
  const found: string[] = [];
  let more = 0;
  for await (const rel of walk(ctx.workdir, base, ctx.signal)) {
    if (!matches(rel.slice(prefix.length))) continue;
    if (found.length < MAX_MATCHES) found.push(rel);
    else more++;
  }
  if (ctx.signal.aborted) throw new ToolError('the listing was stopped before it was complete');
  if (found.length === 0) return ok('no files found');
  return ok(found.join('\n') + (more ? `\n[output truncated: ${more} more files]` : ''));
}
