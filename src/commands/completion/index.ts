import { Argument, type Command } from 'commander';
import { buildProgram, loadAllGroups } from '../../cli/program';
import { completionScript, SHELLS, type Shell } from '../../completion/scripts';
import { write } from '../../io';
import { examples, type Kit } from '../../cli/action';

export default function build(group: Command, kit: Kit): void {
  group.addArgument(new Argument('<shell>', 'the shell').choices(SHELLS)).description('Print the shell completion script (bash, zsh or fish)');
  examples(group, ['source <(svc completion bash)', 'svc completion zsh > "${fpath[1]}/_svc"', 'svc completion fish > ~/.config/fish/completions/svc.fish']);
  group.action(
    kit.action(async (ctx, [shell]) => {
      const program = buildProgram(ctx.io, kit);
      await loadAllGroups(program, kit);
      await write(ctx.io.stdout, completionScript(shell as Shell, program));
    }),
  );
}
