import { Option, type Command } from 'commander';
import { files } from '../../api/files';
import type { Ctx } from '../../context';
import { LIMITS } from '../../wire/limits';
import { examples, type Kit, type Opts } from '../../cli/action';
import { addIdempotencyOption } from '../../cli/verbs/resource';
import { upload, uploadFile } from '../../cli/verbs/transfer';
import { FILE_COLUMNS } from './columns';
import { addCompatOption, versioned } from './options';

// Emulator assumption shared with src/emulator/resources/files.ts: the multipart `purpose` field.
const PURPOSES = ['user_data', 'batch'] as const;

export async function runUpload(ctx: Ctx, file: string, opts: Opts): Promise<void> {
  const src = uploadFile(ctx, file, LIMITS.fileUpload, 'file');
  const created = await upload(ctx, opts, src, { purpose: opts.purpose }, (c, body, key) => files.upload(c, body, key, versioned(opts)), 'svc files list');
  await ctx.out.item(created, FILE_COLUMNS);
}

export function addUpload(group: Command, kit: Kit): Command {
  const cmd = group
    .command('upload')
    .argument('<file>', 'file to upload (at most 100 MiB)')
    .description('Upload a file (multipart, streamed from disk)')
    .addOption(new Option('--purpose <purpose>', 'what the file is for; batch files cannot be attached to sessions').choices(PURPOSES));
  addIdempotencyOption(cmd);
  addCompatOption(cmd);
  examples(cmd, ['svc files upload report.pdf', 'svc files upload data.jsonl --purpose batch -q', 'svc files upload notes.txt --no-version-header']);
  return cmd.action(kit.action((ctx, [file], opts) => runUpload(ctx, file, opts)));
}
