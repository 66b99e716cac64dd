import type { Command } from 'commander';
import { files } from '../../api/files';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { done, LIST_FLAGS, listOptions, printList, type ListPage } from '../../cli/verbs/resource';
import { FILE_COLUMNS } from './columns';
import { addDownload } from './download';
import { VERSION_HEADER_FLAGS, versioned } from './options';
import { addUpload } from './upload';

/** `svc files get|delete ID [--no-version-header]`. */
export interface FileVerbOptions {
  id: string;
  versioned: boolean;
}

/** `svc files get|delete`'s flags. */
export const FILE_VERB_FLAGS = flagTable({ ...VERSION_HEADER_FLAGS });

export const parseFileVerb = ([id]: string[], flags: FlagsOf<typeof FILE_VERB_FLAGS>): FileVerbOptions => ({ id, versioned: versioned(flags) });

/** `svc files list [list flags] [--no-version-header]`. */
export interface FileListOptions {
  list: ListPage;
  versioned: boolean;
}

/** `svc files list`'s flags. */
export const FILE_LIST_FLAGS = flagTable({ ...LIST_FLAGS, ...VERSION_HEADER_FLAGS });

export const parseFileList = (_args: string[], flags: FlagsOf<typeof FILE_LIST_FLAGS>): FileListOptions => ({
  list: listOptions(flags),
  versioned: versioned(flags),
});

export async function runFileList(ctx: Ctx, o: FileListOptions): Promise<void> {
  const c = await ctx.api();
  await printList(ctx, o.list, (lo) => files.list(c, {}, lo, o.versioned), FILE_COLUMNS);
}

export default function build(group: Command, kit: Kit): void {
  const list = addFlags(group.command('list').description('List files'), FILE_LIST_FLAGS);
  examples(list, ['svc files list', 'svc files list --all -o ndjson', 'svc files list --no-version-header']);
  list.action(kit.verb(parseFileList, runFileList));

  const get = addFlags(group.command('get').argument('<id>', 'file ID').description('Show one file record'), FILE_VERB_FLAGS);
  examples(get, ['svc files get FILE_ID', 'svc files get FILE_ID --jq .extract_status']);
  get.action(kit.verb(parseFileVerb, async (ctx, o) => ctx.out.item(await files.get(await ctx.api(), o.id, o.versioned), FILE_COLUMNS)));

  addUpload(group, kit);
  addDownload(group, kit);

  const del = addFlags(group.command('delete').argument('<id>', 'file ID').description('Delete a file'), FILE_VERB_FLAGS);
  examples(del, ['svc files delete FILE_ID']);
  del.action(kit.verb(parseFileVerb, async (ctx, o) => done(ctx, o.id, await files.delete(await ctx.api(), o.id, o.versioned), 'deleted')));
}
