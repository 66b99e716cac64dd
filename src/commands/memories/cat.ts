import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { memories, memoryStores } from '../../api/memory';
import type { Obj } from '../../api/resources';
import type { Ctx } from '../../runtime/context';
import { ExitCodeError, UsageError } from '../../runtime/errors';
import type { OutStream } from '../../runtime/io';
import { flagTable, type FlagsOf } from '../../cli/flags';
import { inParent } from '../../cli/verbs/parent';
import { byIdOrPath } from './lookup';

/** `memories cat STORE MEMORY|PATH [--version V] [-O FILE]`. */
export interface CatOptions {
  store: string;
  memory: string;
  version?: string;
  outputFile?: string;
}

/** `svc memories cat`'s flags. */
export const MEMORY_CAT_FLAGS = flagTable({
  version: { flags: '--version <version>', description: 'a memory version ID instead of the current content' },
  outputFile: { flags: '-O, --output-file <file>', description: 'write the content to FILE instead of standard output' },
});

export function parseCat([store, memory]: string[], flags: FlagsOf<typeof MEMORY_CAT_FLAGS>): CatOptions {
  if (flags.outputFile === '') throw new UsageError('-O needs a file name');
  return { store, memory, version: flags.version, outputFile: flags.outputFile };
}

/** The body's exact bytes, whatever the output format. */
export async function runCat(ctx: Ctx, opts: CatOptions): Promise<void> {
  const { store, memory, version } = opts;
  const c = await ctx.api();
  const obj = await inParent(c, memoryStores, store, (storeId) =>
    byIdOrPath(c, storeId, memory, (id) => (version !== undefined ? memories.version(c, storeId, id, version) : memories.get(c, storeId, id))),
  );
  const bytes = bodyOf(obj);
  if (!bytes) {
    const why = obj.redacted_at
      ? `its body was redacted at ${String(obj.redacted_at)}`
      : obj.operation === 'deleted'
        ? 'it is a deletion'
        : 'the service returned no body';
    throw new ExitCodeError(7, `${opts.version !== undefined ? `version ${opts.version}` : `memory ${memory}`} has no content: ${why}`);
  }
  if (opts.outputFile === undefined) return writeBytes(ctx.io.stdout, bytes);
  const file = resolve(ctx.io.cwd, opts.outputFile);
  try {
    writeFileSync(file, bytes);
  } catch (e) {
    throw new UsageError(`cannot write ${opts.outputFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  await ctx.msg(`wrote ${bytes.length} bytes to ${opts.outputFile}`);
}

/** `content_base64` carries every body; `content` alone (text) is accepted too. */
function bodyOf(obj: Obj): Buffer | undefined {
  if (typeof obj.content_base64 === 'string') return Buffer.from(obj.content_base64, 'base64');
  if (typeof obj.content === 'string') return Buffer.from(obj.content, 'utf8');
  return undefined;
}

function writeBytes(out: OutStream, bytes: Buffer): Promise<void> | void {
  if (!out.write(bytes)) return new Promise((r) => out.once('drain', () => r()));
}
