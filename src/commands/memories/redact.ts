import { memories, memoryStores } from '../../api/memory';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { flagTable, type FlagsOf } from '../../cli/flags';
import { inParent } from '../../cli/verbs/parent';
import { VERSION_COLUMNS } from './columns';

/**
 * `memories redact STORE MEMORY VERSION`: irreversible, so it asks first on a terminal and, where it
 * cannot ask, needs `--yes`. Nothing is sent until confirmed. Repeating is a no-op.
 */
export interface RedactOptions {
  store: string;
  memory: string;
  version: string;
  yes: boolean;
}

/** `svc memories redact`'s flags. */
export const MEMORY_REDACT_FLAGS = flagTable({ yes: { flags: '-y, --yes', description: 'do not ask for confirmation' } });

export const parseRedact = ([store, memory, version]: string[], flags: FlagsOf<typeof MEMORY_REDACT_FLAGS>): RedactOptions => ({
  store,
  memory,
  version,
  yes: Boolean(flags.yes),
});

export async function runRedact(ctx: Ctx, { store, memory, version, yes }: RedactOptions): Promise<void> {
  if (!yes) {
    if (!ctx.canPrompt) throw new UsageError('redact permanently deletes a version body: pass --yes to confirm (cannot prompt: no terminal, --no-input or CI)');
    const { confirm } = await import('../../input/prompt');
    const ok = await confirm(
      ctx.io,
      `Permanently delete the body of version ${version} of memory ${memory} in store ${store}? This cannot be undone.`,
      ctx.settings.accessible,
    );
    if (!ok) throw new UsageError('redaction not confirmed; nothing was sent');
  }
  const c = await ctx.api();
  const redacted = await inParent(c, memoryStores, store, (id) => memories.redact(c, id, memory, version));
  await ctx.out.item(redacted, VERSION_COLUMNS);
}
