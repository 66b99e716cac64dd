import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { confine } from './confine';
import type { ToolContext } from './context';
import { ok, str, type Input, type ToolResult } from './result';

/** `write {path, content}`: creates or replaces the file, and its folders. */
export async function write(input: Input, ctx: ToolContext): Promise<ToolResult> {
  const shown = str(input, 'path');
  const content = str(input, 'content');
  const path = await confine(ctx, shown);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  return ok(`wrote ${Buffer.byteLength(content)} bytes to ${shown}`);
}
