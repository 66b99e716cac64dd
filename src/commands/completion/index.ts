import { Argument, type Command } from 'commander';
import { completionScript, SHELLS, type Shell } from '../../completion/scripts';
import type { Ctx } from '../../runtime/context';
import { write } from '../../runtime/io';
import { examples, type Kit } from '../../cli/action';
import { printsText } from '../../cli/text-output';

/** `svc completion SHELL`: commander has checked the shell against its choices. */
export interface CompletionOptions {
  shell: Shell;
}

export const parseCompletion = ([shell]: string[]): CompletionOptions => ({ shell: shell as Shell });

/** Prints the script for the whole command tree, every group loaded. */
export async function runCompletion(ctx: Ctx, o: CompletionOptions, kit: Kit): Promise<void> {
  const program = kit.tree.build(ctx.io, kit);
  await kit.tree.loadAll(program, kit);
  await write(ctx.io.stdout, completionScript(o.shell, program));
}

export default function build(group: Command, kit: Kit): void {
  group.addArgument(new Argument('<shell>', 'the shell').choices(SHELLS)).description('Print the shell completion script (bash, zsh or fish)');
  examples(group, ['source <(svc completion bash)', 'svc completion zsh > "${fpath[1]}/_svc"', 'svc completion fish > ~/.config/fish/completions/svc.fish']);
  printsText(group, 'it prints a shell script');
  group.action(kit.verb(parseCompletion, (ctx, o) => runCompletion(ctx, o, kit)));
}
