import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { confine } from './confine';
import type { ToolContext } from './context';
import { openRegular, replaceAll } from './open';
import { ok, str, type Input, type ToolResult } from './result';

/** `write {path, content}`: creates or replaces the file, and its folders; anything but a regular file is refused. */
export async function write(input: Input, ctx: ToolContext): Promise<ToolResult> {
  const shown = str(input, 'path');
  const content = str(input, 'content');
  const path = await confine(ctx, shown);
  await mkdir(dirname(path), { recursive: true });
  const handle = await openRegular(path, shown, 'write');
  try {
    await replaceAll(handle, Buffer.from(content));
  } finally {
    await handle.close();
  }
  return ok(`wrote ${Buffer.byteLength(content)} bytes to ${shown}`);
}
