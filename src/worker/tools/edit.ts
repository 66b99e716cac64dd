import { confine } from './confine';
import type { ToolContext } from './context';
import { MAX_FILE_BYTES, openRegular, readAll, replaceAll } from './open';
import { ok, str, ToolError, type Input, type ToolResult } from './result';

/** `edit {path, old_string, new_string, replace_all?}`: `old_string` must be found, and be unique unless `replace_all`. */
export async function edit(input: Input, ctx: ToolContext): Promise<ToolResult> {
  const shown = str(input, 'path');
  const oldString = str(input, 'old_string');
  const newString = str(input, 'new_string');
  const all = input.replace_all === true;
  if (oldString === '') throw new ToolError('input.old_string is empty');
  if (oldString === newString) throw new ToolError('input.old_string and input.new_string are the same');
  const path = await confine(ctx, shown);
  const handle = await openRegular(path, shown, 'update');
  try {
    const text = (await readAll(handle, shown, MAX_FILE_BYTES)).toString('utf8');
    const count = text.split(oldString).length - 1;
    if (count === 0) throw new ToolError(`old_string was not found in ${shown}`);
    if (count > 1 && !all) throw new ToolError(`old_string occurs ${count} times in ${shown}; make it unique or set replace_all`);
    await replaceAll(handle, Buffer.from(all ? text.split(oldString).join(newString) : text.replace(oldString, () => newString)));
    return ok(`edited ${shown} (${all ? count : 1} replacement${(all ? count : 1) === 1 ? '' : 's'})`);
  } finally {
    await handle.close();
  }
}
