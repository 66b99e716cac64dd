import type { Command } from 'commander';
import { files } from '../../api/files';
import type { Ctx } from '../../runtime/context';
import { LIMITS } from '../../wire/limits';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { idempotencyFlags } from '../../cli/verbs/idempotency';
import { upload, uploadFile } from '../../cli/verbs/transfer';
import { FILE_COLUMNS } from './columns';
import { VERSION_HEADER_FLAGS, versioned } from './options';

// Emulator assumption shared with src/emulator/resources/files.ts: the multipart `purpose` field.
const PURPOSES = ['user_data', 'batch'] as const;

/** `svc files upload FILE [--purpose P] [--idempotency-key K] [--no-version-header]`; commander checks the purpose. */
export interface FileUploadOptions {
  file: string;
  purpose?: string;
  idempotencyKey?: string;
  versioned: boolean;
}

/** `svc files upload`'s flags. */
export const FILE_UPLOAD_FLAGS = flagTable({
  purpose: { flags: '--purpose <purpose>', description: 'what the file is for; batch files cannot be attached to sessions', choices: PURPOSES },
  ...idempotencyFlags(),
  ...VERSION_HEADER_FLAGS,
});

export const parseUpload = ([file]: string[], flags: FlagsOf<typeof FILE_UPLOAD_FLAGS>): FileUploadOptions => ({
  file,
  purpose: flags.purpose,
  idempotencyKey: flags.idempotencyKey,
  versioned: versioned(flags),
});

export async function runUpload(ctx: Ctx, o: FileUploadOptions): Promise<void> {
  const src = uploadFile(ctx, o.file, LIMITS.fileUpload, 'file');
  const created = await upload(ctx, o, src, { purpose: o.purpose }, (c, body, key) => files.upload(c, body, key, o.versioned), 'svc files list');
  await ctx.out.item(created, FILE_COLUMNS);
}

export function addUpload(group: Command, kit: Kit): Command {
  const cmd = group.command('upload').argument('<file>', 'file to upload (at most 100 MiB)').description('Upload a file (multipart, streamed from disk)');
  addFlags(cmd, FILE_UPLOAD_FLAGS);
  examples(cmd, ['svc files upload report.pdf', 'svc files upload data.jsonl --purpose batch -q', 'svc files upload notes.txt --no-version-header']);
  return cmd.action(kit.verb(parseUpload, runUpload));
}
