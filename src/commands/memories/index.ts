import type { Command } from 'commander';
import { memories, memoryStores } from '../../api/memory';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { addFlags } from '../../cli/flags';
import { printsText } from '../../cli/text-output';
import { addChildList, done } from '../../cli/verbs/resource';
import { inParent, listInParent } from '../../cli/verbs/parent';
import { MEMORY_CAT_FLAGS, parseCat, runCat } from './cat';
import { forDisplay, MEMORY_COLUMNS } from './columns';
import { MEMORY_REDACT_FLAGS, parseRedact, runRedact } from './redact';
import { MEMORY_VERSIONS_FLAGS, parseVersions, runVersions } from './versions';
import { MEMORY_WRITE_FLAGS, parseWrite, runWrite } from './write';

/** `svc memories get|delete STORE MEMORY`. */
export interface MemoryRef {
  store: string;
  memory: string;
}

export const parseMemoryRef = ([store, memory]: string[]): MemoryRef => ({ store, memory });

/** `svc memories rename STORE MEMORY NEW_PATH`. */
export interface RenameOptions extends MemoryRef {
  path: string;
}

export const parseRename = ([store, memory, path]: string[]): RenameOptions => ({ store, memory, path });

export async function runGet(ctx: Ctx, { store, memory }: MemoryRef): Promise<void> {
  const c = await ctx.api();
  const m = await inParent(c, memoryStores, store, (id) => memories.get(c, id, memory));
  await ctx.out.item(forDisplay(ctx.format, ctx.settings.jq, m), MEMORY_COLUMNS);
}

export async function runRename(ctx: Ctx, { store, memory, path }: RenameOptions): Promise<void> {
  const c = await ctx.api();
  const m = await inParent(c, memoryStores, store, (id) => memories.update(c, id, memory, { path }));
  await ctx.out.item(forDisplay(ctx.format, ctx.settings.jq, m), MEMORY_COLUMNS);
}

export async function runDelete(ctx: Ctx, { store, memory }: MemoryRef): Promise<void> {
  const c = await ctx.api();
  await done(ctx, memory, await inParent(c, memoryStores, store, (id) => memories.delete(c, id, memory)), 'deleted');
}

/**
 * Memories of a store. `get` prints the memory object (in a table without its body); `cat` prints the
 * body's exact bytes. MEMORY is a memory ID; `write` takes a PATH and creates or changes the memory there.
 */
export default function build(group: Command, kit: Kit): void {
  addChildList(group, kit, {
    name: 'list',
    parent: { arg: '<store>', description: 'memory store ID or name' },
    description: 'List the memories of a store, newest first',
    columns: MEMORY_COLUMNS,
    examples: ['svc memories list STORE_ID', 'svc memories list STORE_ID --all -o json --jq ".[].path"'],
    items: async (ctx, store, lo) => {
      const c = await ctx.api();
      return listInParent(c, memoryStores, store, (id) => memories.list(c, id, {}, lo));
    },
  });

  const get = group
    .command('get')
    .argument('<store>', 'memory store ID or name')
    .argument('<memory>', 'memory ID')
    .description('Show a memory (the body only in json, ndjson and yaml; see cat)');
  examples(get, ['svc memories get STORE_ID MEMORY_ID', 'svc memories get STORE_ID MEMORY_ID -o json --jq .content_sha256']);
  get.action(kit.verb(parseMemoryRef, runGet));

  const cat = group
    .command('cat')
    .argument('<store>', 'memory store ID or name')
    .argument('<memory>', 'memory ID, or its path')
    .description('Print the content of a memory, or of one of its versions, byte for byte');
  addFlags(cat, MEMORY_CAT_FLAGS);
  examples(cat, [
    'svc memories cat STORE_ID MEMORY_ID',
    'svc memories cat STORE_ID /notes/today.md',
    'svc memories cat STORE_ID MEMORY_ID --version VERSION_ID -O old.bin',
  ]);
  printsText(cat, 'it prints the content byte for byte (svc memories get shows the memory as an object)');
  cat.action(kit.verb(parseCat, runCat));

  const write = group
    .command('write')
    .argument('<store>', 'memory store ID or name')
    .argument('<path>', 'memory file path')
    .argument('[source]', '- to read the content from standard input')
    .description('Create or change the memory at PATH (text is sent as content, other bytes base64; at most 28 MiB per request)');
  addFlags(write, MEMORY_WRITE_FLAGS);
  examples(write, [
    'svc memories write STORE_ID /notes/today.md --text "Ship on Friday"',
    'svc memories write STORE_ID /images/logo.png --file logo.png',
    'cat notes.md | svc memories write STORE_ID /notes.md -',
    'svc memories write STORE_ID /notes.md --file notes.md --base-version VERSION_ID',
  ]);
  write.action(kit.verb(parseWrite, runWrite));

  const rename = group
    .command('rename')
    .argument('<store>', 'memory store ID or name')
    .argument('<memory>', 'memory ID')
    .argument('<new-path>', 'the new path')
    .description('Move a memory to a new path, keeping its content');
  examples(rename, ['svc memories rename STORE_ID MEMORY_ID /archive/notes.md']);
  rename.action(kit.verb(parseRename, runRename));

  const del = group
    .command('delete')
    .argument('<store>', 'memory store ID or name')
    .argument('<memory>', 'memory ID')
    .description('Delete a memory (recorded as a deleted version)');
  examples(del, ['svc memories delete STORE_ID MEMORY_ID']);
  del.action(kit.verb(parseMemoryRef, runDelete));

  const versions = group
    .command('versions')
    .argument('<store>', 'memory store ID or name')
    .argument('<memory>', 'memory ID')
    .argument('[version]', 'show only this version')
    .description('List the versions of a memory, newest first, or show one');
  addFlags(versions, MEMORY_VERSIONS_FLAGS);
  examples(versions, ['svc memories versions STORE_ID MEMORY_ID', 'svc memories versions STORE_ID MEMORY_ID VERSION_ID -o yaml']);
  versions.action(kit.verb(parseVersions, runVersions));

  const redact = group
    .command('redact')
    .argument('<store>', 'memory store ID or name')
    .argument('<memory>', 'memory ID')
    .argument('<version>', 'memory version ID')
    .description('Permanently delete the body of a past version, keeping its metadata (asks first; --yes where it cannot ask)');
  addFlags(redact, MEMORY_REDACT_FLAGS);
  examples(redact, ['svc memories redact STORE_ID MEMORY_ID VERSION_ID', 'svc memories redact STORE_ID MEMORY_ID VERSION_ID --yes']);
  redact.action(kit.verb(parseRedact, runRedact));
}
