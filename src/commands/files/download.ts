import type { Command } from 'commander';
import { files } from '../../api/files';
import type { Ctx } from '../../context';
import { examples, type Kit, type Opts } from '../../cli/action';
import { addOutputFileOption, download } from '../../cli/verbs/transfer';
import { addCompatOption, versioned } from './options';

export function runDownload(ctx: Ctx, id: string, opts: Opts): Promise<void> {
  return download(ctx, opts, id, (c) => files.content(c, id, versioned(opts)));
}

export function addDownload(group: Command, kit: Kit): Command {
  const cmd = group.command('download').argument('<id>', 'file ID').description('Download the content of a file (to stdout when piped)');
  addOutputFileOption(cmd);
  addCompatOption(cmd);
  examples(cmd, ['svc files download FILE_ID -O report.pdf', 'svc files download FILE_ID -O downloads/', 'svc files download FILE_ID | sha256sum']);
  return cmd.action(kit.action((ctx, [id], opts) => runDownload(ctx, id, opts)));
}
