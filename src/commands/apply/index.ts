import type { Command } from 'commander';
import { collect } from '../../cli/flags';
import { examples, type FlagsOf, type FlagTable, type Kit } from '../../cli/action';
import { UsageError } from '../../runtime/errors';

/** What `svc apply` and `svc diff` read: the paths, the set label, whether to prune or send secrets again. */
export interface SourceOptions {
  paths: string[];
  set?: string;
  prune: boolean;
  updateSecrets: boolean;
}

/** `svc apply`: the sources, and whether to write and to archive without asking. */
export interface ApplyAllOptions extends SourceOptions {
  dryRun: boolean;
  yes: boolean;
}

/** The flags addSourceFlags declares: all of `svc diff`'s. */
export const SOURCE_FLAGS = { file: 'list', set: 'string', prune: 'switch' } as const satisfies FlagTable;
/** `svc apply`'s flags (declared in build). */
export const APPLY_FLAGS = { ...SOURCE_FLAGS, dryRun: 'switch', yes: 'switch', updateSecrets: 'switch' } as const satisfies FlagTable;
type ApplyFlags = FlagsOf<typeof APPLY_FLAGS>;

/** The paths checked before anything is read: at least one, and standard input once. `svc diff` has no --update-secrets: false. */
export function parseSources(_args: string[], flags: ApplyFlags): SourceOptions {
  const paths = flags.file ?? [];
  if (paths.length === 0) throw new UsageError('give at least one -f PATH (a file, a folder or - for standard input)');
  if (paths.filter((p) => p === '-').length > 1) throw new UsageError('standard input (-f -) can be read once');
  return { paths, set: flags.set, prune: Boolean(flags.prune), updateSecrets: Boolean(flags.updateSecrets) };
}

export const parseApplyAll = (args: string[], flags: ApplyFlags): ApplyAllOptions => ({
  ...parseSources(args, flags),
  dryRun: Boolean(flags.dryRun),
  yes: Boolean(flags.yes),
});

/** The flags `svc apply` and `svc diff` share. */
export function addSourceFlags(cmd: Command, prune: string): Command {
  return cmd
    .option('-f, --file <path>', 'a file, a folder (read recursively: *.yaml, *.yml, *.json) or - (repeatable)', collect)
    .option('--set <name>', "the set label of what these files own (default: the first PATH's folder as a path from its git repository's root, else absolute)")
    .option('--prune', prune);
}

/** `svc apply -f PATH…`: configuration as code. */
export default function build(cmd: Command, kit: Kit): void {
  addSourceFlags(cmd, 'archive resources of the set that the files no longer hold')
    .option('--dry-run', 'print the plan and send no write')
    .option('-y, --yes', 'archive without asking (needed for --prune where apply cannot ask)')
    .option('--update-secrets', 'send write-only values (credentials, MCP headers) again for resources that exist')
    .action(kit.verb(parseApplyAll, async (ctx, o) => (await import('./run')).runApplyAll(ctx, o)));
  examples(cmd, ['svc apply -f config/ --dry-run', 'svc apply -f config/ --prune --yes', 'svc apply -f agents.yaml -f triggers.yaml --set ci']);
}
