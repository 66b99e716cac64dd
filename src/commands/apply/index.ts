import type { Command } from 'commander';
import { collect } from '../../cli/flags';
import { examples, type Kit } from '../../cli/action';

/** The flags `svc apply` and `svc diff` share. */
export function addSourceFlags(cmd: Command, prune: string): Command {
  return cmd
    .option('-f, --file <path>', 'a file, a folder (read recursively: *.yaml, *.yml, *.json) or - (repeatable)', collect)
    .option('--set <name>', "the set label of what these files own (default: the first PATH's folder as a path from its git repository's root, else absolute)")
    .option('--prune', prune);
}

/** `svc apply -f PATH…`: configuration as code (CLI.md "Added in the second round"). */
export default function build(cmd: Command, kit: Kit): void {
  addSourceFlags(cmd, 'archive resources of the set that the files no longer hold')
    .option('--dry-run', 'print the plan and send no write')
    .option('-y, --yes', 'archive without asking (needed for --prune where apply cannot ask)')
    .option('--update-secrets', 'send write-only values (credentials, MCP headers) again for resources that exist')
    .action(kit.action(async (ctx, _args, opts) => (await import('./run')).runApplyAll(ctx, opts)));
  examples(cmd, ['svc apply -f config/ --dry-run', 'svc apply -f config/ --prune --yes', 'svc apply -f agents.yaml -f triggers.yaml --set ci']);
}
