import type { Command } from 'commander';
import { skills } from '../../api/skills';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { LIMITS } from '../../wire/limits';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { idempotencyFlags } from '../../cli/verbs/idempotency';
import { upload, uploadFile } from '../../cli/verbs/transfer';
import { parentId } from '../../cli/verbs/parent';
import { SKILL_COLUMNS } from './columns';
import { shellWord } from '../../text/shell-words';

/** The package path: the argument or `--file`, not two different ones. */
export function packagePath(arg: string | undefined, flag: string | undefined): string | undefined {
  if (arg !== undefined && flag !== undefined && arg !== flag) throw new UsageError(`give the package once: ${arg} or --file ${flag}`);
  return arg ?? flag;
}

/** `svc skills create [FILE | --file FILE] [--name N] [--description T] [--categories LIST] [--idempotency-key K]`. */
export interface SkillCreateOptions {
  file?: string;
  /** Emulator assumption (not shown in the spec): text fields name, description, and categories comma-separated. */
  fields: { name?: string; description?: string; categories?: string };
  idempotencyKey?: string;
}

/** `svc skills create`'s flags. */
export const SKILL_CREATE_FLAGS = flagTable({
  file: { flags: '--file <file>', description: 'skill package (instead of the argument)' },
  name: { flags: '--name <name>', description: 'skill name (default: the package file name)' },
  description: { flags: '--description <text>', description: 'description' },
  categories: { flags: '--categories <list>', description: 'comma-separated categories, e.g. dev_tools,productivity' },
  ...idempotencyFlags(),
});

export const parseCreate = ([file]: string[], flags: FlagsOf<typeof SKILL_CREATE_FLAGS>): SkillCreateOptions => ({
  file: packagePath(file, flags.file),
  fields: { name: flags.name, description: flags.description, categories: flags.categories },
  idempotencyKey: flags.idempotencyKey,
});

export async function runCreate(ctx: Ctx, o: SkillCreateOptions): Promise<void> {
  const src = uploadFile(ctx, o.file, LIMITS.skillPackage, 'skill package');
  await ctx.out.item(await upload(ctx, o, src, o.fields, (c, body, key) => skills.upload(c, body, key), 'svc skills list'), SKILL_COLUMNS);
}

export function addCreate(group: Command, kit: Kit): Command {
  const cmd = group.command('create').argument('[file]', 'skill package (at most 64 MiB)').description('Create a skill by uploading its package (version 1)');
  addFlags(cmd, SKILL_CREATE_FLAGS);
  examples(cmd, ['svc skills create review.zip --name reviewer --categories dev_tools', 'svc skills create --file ./pkg/skill.zip -q']);
  return cmd.action(kit.verb(parseCreate, runCreate));
}

/** `svc skills create-version SKILL FILE [--idempotency-key K]`. */
export interface SkillVersionOptions {
  id: string;
  file: string;
  idempotencyKey?: string;
}

/** `svc skills create-version`'s flags. */
export const SKILL_CREATE_VERSION_FLAGS = flagTable({ ...idempotencyFlags() });

export const parseCreateVersion = ([id, file]: string[], flags: FlagsOf<typeof SKILL_CREATE_VERSION_FLAGS>): SkillVersionOptions => ({
  id,
  file,
  idempotencyKey: flags.idempotencyKey,
});

export async function runCreateVersion(ctx: Ctx, o: SkillVersionOptions): Promise<void> {
  const src = uploadFile(ctx, o.file, LIMITS.skillPackage, 'skill package');
  const id = await parentId(await ctx.api(), skills, o.id);
  await ctx.out.item(await upload(ctx, o, src, {}, (c, body, key) => skills.uploadVersion(c, id, body, key), `svc skills versions ${shellWord(id)}`));
}

export function addCreateVersion(group: Command, kit: Kit): Command {
  const cmd = group
    .command('create-version')
    .argument('<skill>', 'skill ID or name')
    .argument('<file>', 'new package (at most 64 MiB)')
    .description('Upload a new immutable version of a skill');
  addFlags(cmd, SKILL_CREATE_VERSION_FLAGS);
  examples(cmd, ['svc skills create-version SKILL_ID review-v2.zip', 'svc skills create-version SKILL_ID review-v2.zip --jq .version']);
  return cmd.action(kit.verb(parseCreateVersion, runCreateVersion));
}
