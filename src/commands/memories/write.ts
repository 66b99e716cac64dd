import { memories, memoryStores, type MemoryWrite } from '../../api/memory';
import type { Obj } from '../../api/resources';
import type { Ctx } from '../../runtime/context';
import { ExitCodeError, UsageError } from '../../runtime/errors';
import { flagTable, type FlagsOf } from '../../cli/flags';
import { idempotencyFlags } from '../../cli/verbs/idempotency';
import { idempotencyKey } from '../../cli/verbs/resource';
import { inParent } from '../../cli/verbs/parent';
import { forDisplay, MEMORY_COLUMNS } from './columns';
import { checkRequestSize, contentBody, contentSource, readContent, type ContentSource } from './content';
import { findByPath } from './lookup';
import { shellWord } from '../../text/shell-words';

/**
 * `memories write STORE PATH`: creates the memory at PATH, or changes the one there. With
 * `--base-version V` the change is based on V; when V is no longer current the service records the
 * write as an out-of-order version that never becomes current, and this exits 7.
 */
export interface WriteOptions {
  store: string;
  path: string;
  source: ContentSource;
  baseVersion?: string;
  idempotencyKey?: string;
}

/** `svc memories write`'s flags. */
export const MEMORY_WRITE_FLAGS = flagTable({
  file: { flags: '--file <file>', description: 'read the content from FILE (- for standard input)' },
  text: { flags: '--text <text>', description: 'the content as text' },
  baseVersion: { flags: '--base-version <version>', description: 'base the change on this version; a stale one is recorded out of order and exits 7' },
  ...idempotencyFlags('Idempotency-Key for a create (default: a fresh UUID)'),
});

export function parseWrite([store, path, positional]: string[], flags: FlagsOf<typeof MEMORY_WRITE_FLAGS>): WriteOptions {
  if (path === '') throw new UsageError('PATH must not be empty');
  if (flags.baseVersion === '') throw new UsageError('--base-version must not be empty');
  return {
    store,
    path,
    source: contentSource(flags, positional),
    baseVersion: flags.baseVersion,
    idempotencyKey: flags.idempotencyKey,
  };
}

export async function runWrite(ctx: Ctx, opts: WriteOptions): Promise<void> {
  const { store, path } = opts;
  const key = idempotencyKey(opts);
  const body: MemoryWrite = {
    ...contentBody(await readContent(opts.source, ctx.io)),
    ...(opts.baseVersion !== undefined ? { base_version_id: opts.baseVersion } : {}),
  };
  checkRequestSize({ path, ...body });
  const c = await ctx.api();
  // The lookup by path is a read, so it settles the store (ID or name) before the keyed create.
  const [storeId, existing] = await inParent(c, memoryStores, store, async (id) => [id, await findByPath(c, id, path)] as const);
  let written: Obj;
  if (!existing) {
    if (opts.baseVersion !== undefined) throw new ExitCodeError(6, `no memory at ${path} in memory store ${store}: --base-version needs an existing memory`);
    written = await memories.create(c, storeId, { path, ...body }, key);
  } else {
    written = await memories.update(c, storeId, String(existing.id), body);
    // The current version is unchanged when the service recorded the write out of order.
    if (opts.baseVersion !== undefined && written.current_version_id === existing.current_version_id) {
      throw new ExitCodeError(
        7,
        `base version ${opts.baseVersion} is not the current version of ${path}: the write was recorded as an out-of-order version but the current version is still ${String(existing.current_version_id)} (see \`svc memories versions ${shellWord(store)} ${shellWord(String(existing.id))}\`)`,
      );
    }
  }
  await ctx.out.item(forDisplay(ctx.format, ctx.settings.jq, written), MEMORY_COLUMNS);
}
