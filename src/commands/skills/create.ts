import type { Command } from 'commander';
import { skills } from '../../api/skills';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { LIMITS } from '../../wire/limits';
import { examples, type Kit, type Opts } from '../../cli/action';
import { addIdempotencyOption } from '../../cli/verbs/resource';
import { upload, uploadFile } from '../../cli/verbs/transfer';
import { SKILL_COLUMNS } from './columns';

/** The package path: the argument or `--file`, not two different ones. */
export function packagePath(arg: string | undefined, flag: string | undefined): string | undefined {
  if (arg !== undefined && flag !== undefined && arg !== flag) throw new UsageError(`give the package once: ${arg} or --file ${flag}`);
  return arg ?? flag;
}

export async function runCreate(ctx: Ctx, file: string | undefined, opts: Opts): Promise<void> {
  const src = uploadFile(ctx, packagePath(file, opts.file), LIMITS.skillPackage, 'skill package');
  // Emulator assumption (not shown in the spec): text fields name, description, and categories comma-separated.
  const fields = { name: opts.name, description: opts.description, categories: opts.categories };
  await ctx.out.item(await upload(ctx, opts, src, fields, (c, body, key) => skills.upload(c, body, key), 'svc skills list'), SKILL_COLUMNS);
}

export function addCreate(group: Command, kit: Kit): Command {
  const cmd = group
    .command('create')
    .argument('[file]', 'skill package (at most 64 MiB)')
    .description('Create a skill by uploading its package (version 1)')
    .option('--file <file>', 'skill package (instead of the argument)')
    .option('--name <name>', 'skill name (default: the package file name)')
    .option('--description <text>', 'description')
    .option('--categories <list>', 'comma-separated categories, e.g. dev_tools,productivity');
  addIdempotencyOption(cmd);
  examples(cmd, ['svc skills create review.zip --name reviewer --categories dev_tools', 'svc skills create --file ./pkg/skill.zip -q']);
  return cmd.action(kit.action((ctx, [file], opts) => runCreate(ctx, file, opts)));
}

export async function runCreateVersion(ctx: Ctx, id: string, file: string, opts: Opts): Promise<void> {
  const src = uploadFile(ctx, file, LIMITS.skillPackage, 'skill package');
  await ctx.out.item(await upload(ctx, opts, src, {}, (c, body, key) => skills.uploadVersion(c, id, body, key), `svc skills versions ${id}`));
}

export function addCreateVersion(group: Command, kit: Kit): Command {
  const cmd = group
    .command('create-version')
    .argument('<skill>', 'skill ID')
    .argument('<file>', 'new package (at most 64 MiB)')
    .description('Upload a new immutable version of a skill');
  addIdempotencyOption(cmd);
  examples(cmd, ['svc skills create-version SKILL_ID review-v2.zip', 'svc skills create-version SKILL_ID review-v2.zip --jq .version']);
  return cmd.action(kit.action((ctx, [id, file], opts) => runCreateVersion(ctx, id, file, opts)));
}
