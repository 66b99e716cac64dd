import type { Command } from 'commander';
import { files } from '../../api/files';
import type { Ctx } from '../../runtime/context';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { addOutputFileOption, download, type OUTPUT_FILE_FLAGS } from '../../cli/verbs/transfer';
import { VERSION_HEADER_FLAGS, versioned } from './options';

/** `svc files download ID [-O PATH] [--no-version-header]`. */
export interface FileDownloadOptions {
  id: string;
  outputFile?: string;
  versioned: boolean;
}

/** `svc files download`'s flags besides `-O` (addOutputFileOption's). */
export const FILE_DOWNLOAD_FLAGS = flagTable({ ...VERSION_HEADER_FLAGS });

export const parseDownload = ([id]: string[], flags: FlagsOf<typeof FILE_DOWNLOAD_FLAGS & typeof OUTPUT_FILE_FLAGS>): FileDownloadOptions => ({
  id,
  outputFile: flags.outputFile,
  versioned: versioned(flags),
});

export function runDownload(ctx: Ctx, o: FileDownloadOptions): Promise<void> {
  return download(ctx, o, o.id, (c) => files.content(c, o.id, o.versioned));
}

export function addDownload(group: Command, kit: Kit): Command {
  const cmd = group.command('download').argument('<id>', 'file ID').description('Download the content of a file (to stdout when piped)');
  addFlags(addOutputFileOption(cmd), FILE_DOWNLOAD_FLAGS);
  examples(cmd, ['svc files download FILE_ID -O report.pdf', 'svc files download FILE_ID -O downloads/', 'svc files download FILE_ID | sha256sum']);
  return cmd.action(kit.verb(parseDownload, runDownload));
}
