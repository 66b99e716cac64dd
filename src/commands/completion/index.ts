import { Argument, type Command } from 'commander';
import { completionScript, SHELLS, type Shell } from '../../completion/scripts';
import { write } from '../../io';
import { examples, type Kit } from '../../cli/action';
import { printsText } from '../../cli/text-output';

export default function build(group: Command, kit: Kit): void {
  group.addArgument(new Argument('<shell>', 'the shell').choices(SHELLS)).description('Print the shell completion script (bash, zsh or fish)');
  examples(group, ['source <(svc completion bash)', 'svc completion zsh > "${fpath[1]}/_svc"', 'svc completion fish > ~/.config/fish/completions/svc.fish']);
  printsText(group, 'it prints a shell script');
  group.action(
    kit.action(async (ctx, [shell]) => {
      const program = kit.tree.build(ctx.io, kit);
      await kit.tree.loadAll(program, kit);
      await write(ctx.io.stdout, completionScript(shell as Shell, program));
    }),
  );
}
