import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
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

/** The flags `svc apply` and `svc diff` share (all of `svc diff`'s), `--prune` described as the verb does it. */
export const sourceFlags = (prune: string) =>
  flagTable({
    file: { flags: '-f, --file <path>', description: 'a file, a folder (read recursively: *.yaml, *.yml, *.json) or - (repeatable)', repeat: true },
    set: {
      flags: '--set <name>',
      description: "the set label of what these files own (default: the first PATH's folder as a path from its git repository's root, else absolute)",
    },
    prune: { flags: '--prune', description: prune },
  });

/** `svc apply`'s flags. */
export const APPLY_FLAGS = flagTable({
  ...sourceFlags('archive resources of the set that the files no longer hold'),
  dryRun: { flags: '--dry-run', description: 'print the plan and send no write' },
  yes: { flags: '-y, --yes', description: 'archive without asking (needed for --prune where apply cannot ask)' },
  updateSecrets: { flags: '--update-secrets', description: 'send write-only values (credentials, MCP headers) again for resources that exist' },
});
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

/** `svc apply -f PATH…`: configuration as code. */
export default function build(cmd: Command, kit: Kit): void {
  addFlags(cmd, APPLY_FLAGS).action(kit.verb(parseApplyAll, async (ctx, o) => (await import('./run')).runApplyAll(ctx, o)));
  examples(cmd, ['svc apply -f config/ --dry-run', 'svc apply -f config/ --prune --yes', 'svc apply -f agents.yaml -f triggers.yaml --set ci']);
}
